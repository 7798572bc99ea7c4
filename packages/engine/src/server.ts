/**
 * `@basekit/engine/server`: what only a server of the engine over a real network and real tools needs (the Node
 * server, `@basekit/mock-server`): ffmpeg's arguments for a job's settings, the largest frame it converts, whether a
 * listen host is this machine. Apart from the package's root, which `@basekit/msw` imports, because a bundler loads
 * every module a root re-exports with the page, used or not (1.8 KB gzip of every browser app, with esbuild).
 *
 * @example
 * import { ffmpegOptions, isLoopback } from '@basekit/engine/server';
 *
 * @module @basekit/engine/server
 */
export { ffmpegOptions } from './areas/transcoder/ffmpeg-options.js';
export { MAX_FRAME } from './areas/transcoder/units.js';
export { isLoopback } from './shared/http/hosts.js';
