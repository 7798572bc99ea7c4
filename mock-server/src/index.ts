/**
 * `@basekit/mock-server`: the reference server, to start in-process from tests (`startServer`), and the engine it
 * runs. The command line is `basekit-server`; `@basekit/mock-server/testing` makes a project per test.
 *
 * @example
 * import { startServer } from '@basekit/mock-server';
 * const server = await startServer({ port: 0 });
 * // server.url, server.engine, await server.close()
 *
 * @module @basekit/mock-server
 */
export { startServer, type StartOptions, type RunningServer } from './server.js';
export {
  createEngine,
  DEFAULT_CONFIG,
  ConfigError,
  type Engine,
  type EngineOptions,
  type Config,
  type ConfigInput,
} from '@basekit/engine';
