import {
  ErrorCode,
  createEngine,
  developmentConfig,
  resolveConfig,
  type Capabilities,
  type ConfigInput,
  type Engine,
  type ExchangeListener,
} from '@basekit/engine';
import { createBackend, type Backend } from './backend.js';
import { distinctBases, toEngineRequest } from './bases.js';
import { canvasImageResizer } from './canvas-resizer.js';
import { EngineHandler } from './engine-handler.js';
import { IndexedDbJournal } from './indexeddb-journal.js';
import { persistedDatabaseName } from './persist.js';
import type { Seed } from './seed.js';

/**
 * What `createHandlers` takes: the base URLs the app calls, the project's config, the seed, and more (see docs/msw.md).
 *
 * @example
 * const options: HandlersOptions = { baseUrl: 'https://api.example.test', config: { emailConfirmation: true }, seed: demoSeed };
 * const backend = createHandlers(options);
 */
export interface HandlersOptions {
  /** `{base_url}`: users, database, leaderboards (as given to the SDK). */
  baseUrl: string;
  /** `{storage_url}`: file storage and downloads; defaults to `baseUrl`. */
  storageUrl?: string;
  /** `{transcoder_url}`; defaults to `baseUrl`. */
  transcoderUrl?: string;
  /** Config keys, as in the reference server's config file, over its built-in development config (see `developmentConfig`). */
  config?: Partial<ConfigInput>;
  /** What the backend holds at start and after every `reset()`. */
  seed?: Seed;
  /** Replaces platform capabilities, e.g. `fetch` for the transcoder's deliveries or an `images` resizer in Node. */
  capabilities?: Partial<Capabilities>;
  /**
   * `'indexeddb'`: the state (files included) survives page reloads, kept in this origin's IndexedDB (one database
   * per `baseUrl`, shared by the tabs of the origin, see docs/msw.md). The `seed` goes in only while nothing is kept;
   * `reset()` returns to it. `clearPersistedState(baseUrl)` forgets it. Absent: memory only.
   */
  persist?: 'indexeddb';
  /**
   * Called with every request the backend answers (`Engine.onExchange`): method, path, status, caller, area, timing,
   * and on demand the headers and bodies with secrets masked. The backend's own `admin` calls (seed, reset…) are
   * answered by the engine too and are reported as well. Without it, and without `config.inspectorLimit`, nothing is
   * recorded.
   */
  onExchange?: ExchangeListener;
}

/**
 * msw request handlers backed by the engine, with the test controls of that backend and the engine itself; `close()`
 * waits for the changes under way and, with `persist`, keeps the state whole (a snapshot) and lets go of it.
 *
 * @example
 * const backend: BasekitHandlers = createHandlers({ baseUrl: 'https://api.example.test' });
 * const server = setupServer(...backend); // the handlers
 * await backend.reset(); // the controls
 */
export type BasekitHandlers = EngineHandler[] &
  Backend & {
    /** The engine behind the handlers (`fetch`, `project`, `onExchange`). */
    engine: Engine;
    /** Waits for the changes under way; with `persist`, keeps the state whole (a snapshot) and lets go of it. */
    close(): Promise<void>;
  };

/** The engine's answer, or why it has no such operation (its 404 with code 2 names the closest ones). */
async function claimed(response: Response): Promise<Response | { unknownOperation: string }> {
  if (response.status !== 404) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { code?: unknown; error?: unknown } | undefined;
  return body?.code === ErrorCode.ROUTE_NOT_FOUND ? { unknownOperation: String(body.error) } : response;
}

/**
 * msw 2.x handlers that answer every area of the service with the reference server's engine, in memory: one
 * catch-all handler per distinct base URL. A request the engine has no operation for (its 404 with code 2) is not
 * claimed, so msw's `onUnhandledRequest` sees it (`explainUnhandled` prints the closest operations). The returned array also carries the test controls (`reset`,
 * `seed`, `clock`, `outbox`, `jobs`, `state`, `rows`) and the `engine`.
 *
 * @example
 * // Node (Vitest, Jest)
 * const backend = createHandlers({ baseUrl: 'https://api.example.test', seed: { users: [{ username: 'ann', password: 'pw' }] } });
 * const server = setupServer(...backend);
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
 * beforeEach(() => backend.reset());
 * afterAll(() => server.close());
 *
 * // Browser
 * await setupWorker(...createHandlers({ baseUrl: 'https://api.example.test' })).start();
 */
export function createHandlers(options: HandlersOptions): BasekitHandlers {
  // The in-memory request list of the admin API costs a page something on every request: kept only when asked for.
  const config = resolveConfig(developmentConfig({ inspectorLimit: 0, ...options.config }));
  const images = canvasImageResizer();
  const journal =
    options.persist === 'indexeddb' ? new IndexedDbJournal(persistedDatabaseName(options.baseUrl)) : undefined;
  const engine = createEngine({
    config,
    capabilities: { ...(images && { images }), ...(journal && { journal }), ...options.capabilities },
  });
  if (options.onExchange) engine.onExchange(options.onExchange);
  // The controls talk to the engine directly, at the base URL's origin (where confirmation links then point).
  const origin = new URL(options.baseUrl, globalThis.location?.href).origin;
  const backend = createBackend(
    { baseUrl: origin, masterKey: config.masterKey, headerWord: config.headerWord[0], fetch: engine.fetch },
    { seed: options.seed, engine, journaled: journal !== undefined },
  );
  const handlers = distinctBases([options.baseUrl, options.storageUrl, options.transcoderUrl]).map(
    (base) =>
      new EngineHandler(base.href, async (request) => {
        await backend.ready;
        return claimed(await engine.fetch(await toEngineRequest(request, base)));
      }),
  );
  const close = async () => {
    await engine.close();
    await journal?.close();
  };
  return Object.assign(handlers, backend, { engine, close });
}
