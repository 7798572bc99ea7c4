import { DEFAULT_CONFIG, type ConfigInput } from '@basekit/engine';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.js';

export const TEST_CONFIG: ConfigInput = {
  ...DEFAULT_CONFIG,
  events: [
    { name: 'match_end', fields: ['score', 'kills', 'time'] },
    { name: 'level_up', fields: ['level'] },
  ],
  leaderboards: [{ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] }],
};

export interface TestServer extends RunningServer {
  config: ConfigInput;
  /** fetch relative to the server's URL. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** An admin API call with the master key. */
  admin(path: string, init?: RequestInit): Promise<Response>;
  reset(): Promise<void>;
}

/**
 * Starts a real HTTP reference server (HTTPS in the HTTPS run) on a free port for black-box tests (`options.panelDir`: a panel build to serve).
 * Pair with `afterAll(() => server.close())` and, where tests must not see each other's state, `beforeEach(() => server.reset())`.
 */
export async function startTestServer(
  overrides: Partial<ConfigInput> = {},
  options: Pick<StartOptions, 'panelDir'> = {},
): Promise<TestServer> {
  const config = { ...TEST_CONFIG, ...overrides } as ConfigInput;
  // In the HTTPS run (vitest.config.ts) the tests reach the server over HTTPS, with the run's local CA.
  const tlsDir = process.env['BASEKIT_TEST_TLS_DIR'];
  const running = await startServer({ ...options, config, port: 0, ...(tlsDir && { httpsPort: 0, tlsDir }) });
  const url = running.httpsUrl ?? running.url;
  const request = (path: string, init?: RequestInit) => fetch(`${url}${path}`, init);
  // The admin API reads the master key under the project's (first) header word, as every other header.
  const masterKeyHeader = `X-${[config.headerWord ?? 'Service'].flat()[0]}-Authentication-Key`;
  const admin = (path: string, init: RequestInit = {}) =>
    request(path, { ...init, headers: { [masterKeyHeader]: config.masterKey, ...init.headers } });
  return {
    ...running,
    url,
    config,
    request,
    admin,
    async reset() {
      const res = await admin('/__admin/reset', { method: 'POST' });
      if (!res.ok) throw new Error(`reset failed: ${res.status}`);
    },
  };
}
