import type { ConfigInput } from '@basekit/engine';
import {
  TEST_CONFIG,
  testServer,
  type TestServer as EngineTestServer,
} from '../../../packages/engine/test/support/server.js';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.js';

export { TEST_CONFIG };

/** The Node server under test: the engine's test calls (packages/engine/test/support) and what the server adds. */
export interface TestServer extends EngineTestServer, RunningServer {}

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
  return { ...running, ...testServer({ url, config, engine: running.engine, fetch, close: running.close }) };
}

/**
 * Closes `servers` and empties the list (a test's clean-up), one after the other and whatever each answers: a test
 * that left a "crashed" server running beside its successor has two servers on one data folder, whose snapshots must
 * not be written into it at once.
 */
export async function closeAll(servers: RunningServer[]): Promise<void> {
  for (const server of servers.splice(0)) await server.close().catch(() => undefined);
}
