/**
 * `@basekit/msw`: the reference server's engine inside Mock Service Worker, stateful and faithful, for browser
 * (`setupWorker`) and Node (`setupServer`) tests.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from '@basekit/msw';
 * const backend = createHandlers({ baseUrl: 'https://api.example.test' });
 * const server = setupServer(...backend);
 *
 * @module @basekit/msw
 */
export { createHandlers, type BasekitHandlers, type HandlersOptions } from './create-handlers.js';
export { connectServer, type ServerOptions } from './connect-server.js';
export type { Backend, Fault, FaultSpec, Mail, Snapshot, StateExport, StoredRow, TranscoderJob } from './backend.js';
export type { Seed, SeedFile, SeedRow, SeedScore, SeedUser } from './seed.js';
export { EngineHandler } from './engine-handler.js';
export { explainUnhandled } from './unhandled.js';
export { canvasImageResizer } from './canvas-resizer.js';
export { clearPersistedState } from './persist.js';
