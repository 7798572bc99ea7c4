import { createBackend, type Backend } from './backend.js';
import type { Seed } from './seed.js';

/**
 * Where the reference server of `connectServer` is, and how to reach its admin API.
 *
 * @example
 * const options: ServerOptions = { url: 'http://127.0.0.1:3000', masterKey: 'dev-master-key', seed: { users: [] } };
 */
export interface ServerOptions {
  /** The reference server's URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** The master key of its default project (the admin API's key). */
  masterKey: string;
  /** Seeded at once; `reset()` returns to the state right after it. */
  seed?: Seed;
  /** The word of the server's header names (`Service` by default). */
  headerWord?: string;
}

/**
 * The same test controls as `createHandlers` gives, for a running reference server (through its admin API): seed
 * it with the fixture the msw tests use, reset it between tests, move its clock.
 *
 * @example
 * const backend = connectServer({ url: server.url, masterKey: 'dev-master-key', seed: demoSeed });
 * await backend.ready;
 * await backend.reset();
 */
export function connectServer({ url, masterKey, seed, headerWord }: ServerOptions): Backend {
  return createBackend({ baseUrl: url, masterKey, headerWord }, { seed });
}
