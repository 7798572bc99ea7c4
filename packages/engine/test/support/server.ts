// The engine's behaviour tests reach it through a transport chosen per Vitest project (vitest.config.ts): by default
// `engine.fetch` of an engine in this process with the engine's own capability stand-ins — no Node-only import on
// that path, so the tests prove the engine as msw's users get it — and, in the "engine over HTTP" project, HTTP
// against the Node server (mock-server's `startServer`), loaded only then.
import { inject } from 'vitest';
import {
  createEngine,
  DEFAULT_CONFIG,
  developmentConfig,
  resolveConfig,
  type Capabilities,
  type ConfigInput,
  type Engine,
} from '../../src/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** How the engine's behaviour tests reach it: `http` over the Node server; absent, `engine.fetch` in process. */
    engineTransport?: 'http';
  }
}

export const TEST_CONFIG: ConfigInput = {
  ...DEFAULT_CONFIG,
  events: [
    { name: 'match_end', fields: ['score', 'kills', 'time'] },
    { name: 'level_up', fields: ['level'] },
  ],
  leaderboards: [{ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] }],
};

/** A `fetch` of the transport: absolute URLs under the server's `url`. */
type TestFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The engine under test behind one transport, with the calls every test makes. */
export interface TestServer {
  /** The origin every request goes to (`http://HOST:PORT` over HTTP). */
  url: string;
  config: ConfigInput;
  engine: Engine;
  /** fetch through the transport, for absolute URLs (links the engine sends, `${server.url}/...`). */
  fetch: TestFetch;
  /** fetch relative to the server's URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** An admin API call with the master key. */
  admin(path: string, init?: RequestInit): Promise<Response>;
  /** Changes the project's config at run time (`PATCH /__admin/config`) and returns it; throws unless it answers 200. */
  patchConfig(patch: Record<string, unknown>): Promise<Record<string, unknown>>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The calls of a `TestServer` over one transport's `fetch`.
 *
 * @example
 * const server = testServer({ url, config, engine, fetch: engineFetch(engine), close: () => engine.close() });
 */
export function testServer(base: Pick<TestServer, 'url' | 'config' | 'engine' | 'fetch' | 'close'>): TestServer {
  const request = (path: string, init?: RequestInit) => base.fetch(`${base.url}${path}`, init);
  // The admin API reads the master key under the project's (first) header word, as every other header.
  const masterKeyHeader = `X-${[base.config.headerWord ?? 'Service'].flat()[0]}-Authentication-Key`;
  const admin = (path: string, init: RequestInit = {}) =>
    request(path, { ...init, headers: { [masterKeyHeader]: base.config.masterKey, ...init.headers } });
  return {
    ...base,
    request,
    admin,
    async patchConfig(patch) {
      const res = await admin('/__admin/config', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(patch),
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (res.status !== 200)
        throw new Error(`config patch ${JSON.stringify(patch)}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    },
    async reset() {
      const res = await admin('/__admin/reset', { method: 'POST' });
      if (!res.ok) throw new Error(`reset failed: ${res.status}`);
    },
  };
}

/**
 * The engine under test with the test config and `overrides`, over this project's transport.
 * Pair with `afterAll(() => server.close())` and, where tests must not see each other's state, `beforeEach(() => server.reset())`.
 */
export async function startTestServer(overrides: Partial<ConfigInput> = {}): Promise<TestServer> {
  const config = { ...TEST_CONFIG, ...overrides } as ConfigInput;
  if (inject('engineTransport') === 'http') {
    const { startServer } = await import('../../../../mock-server/src/server.js');
    const running = await startServer({ config, port: 0 });
    return testServer({ url: running.url, config, engine: running.engine, fetch, close: running.close });
  }
  return startEngine(config);
}

/**
 * An engine in this process with the test config and `overrides`, reached through `engine.fetch`, whatever the
 * project's transport: for tests that give it capabilities of their own (`capabilities`).
 */
export async function startEngine(
  config: ConfigInput = TEST_CONFIG,
  capabilities: Partial<Capabilities> = {},
): Promise<TestServer> {
  const engine = createEngine({ config: resolveConfig(developmentConfig(config)), capabilities });
  await engine.ready;
  const url = 'http://engine.test';
  // Links the engine sends (confirmation e-mails) point here, as the Node server points them at its own address.
  engine.projects.registry.serverUrl = url;
  const engineFetch: TestFetch = (input, init) => engine.fetch(new Request(input, init));
  return testServer({ url, config, engine, fetch: engineFetch, close: () => engine.close() });
}
