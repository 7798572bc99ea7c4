import { createServer, type AddressInfo } from 'node:net';
import { createClient, type Client, type ClientOptions } from '../src/index.js';
import { startTestEndpoint, type TestEndpoint } from '../../../mock-server/test/support/shared-server.js';

/** The backend of one test file: a server of its own, or a project of its own on the run's shared server (vitest.config.ts). */
export type TestServer = TestEndpoint;

/**
 * The word of the service's header names this run uses. The suite runs twice (vitest.config.ts): with the spec's
 * "Service", and against a server that accepts only another word, with the SDK's `headerWord` set to it.
 */
export const HEADER_WORD = process.env['BASEKIT_HEADER_WORD'];

/** A header name of the service with this run's word: `serviceHeader('Storage-Id')`. */
export const serviceHeader = (name: string) => `X-${HEADER_WORD ?? 'Service'}-${name}`;

/** The reference server (or a project on the shared one) for SDK tests, accepting only this run's header word. */
export const startTestServer: typeof startTestEndpoint = (overrides = {}) =>
  startTestEndpoint({ ...(HEADER_WORD && { headerWord: HEADER_WORD }), ...overrides });

/** One request the SDK sent, as the server answered it. */
interface Exchange {
  method: string;
  path: string;
  status: number;
  renewal: boolean;
}

/** A fetch that passes every request to the real one and records it, to see what the SDK sent. */
export function recordingFetch() {
  const exchanges: Exchange[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    const renewal = request.headers.get(serviceHeader('Authentication-Refresh')) === '1';
    const response = await globalThis.fetch(request);
    exchanges.push({ method: request.method, path: new URL(request.url).pathname, status: response.status, renewal });
    return response;
  };
  return { fetch, exchanges, renewals: () => exchanges.filter((e) => e.renewal).length };
}

/** The options of a client of the test server's project. */
export function optionsFor(server: TestServer, extra: Partial<ClientOptions> = {}): ClientOptions {
  const { authenticationId, clientKey, objectStorageId, storageId, gameId } = server.config;
  return {
    baseUrl: server.url,
    authenticationId,
    clientKey,
    objectStorageId,
    storageId,
    gameId,
    ...(HEADER_WORD && { headerWord: HEADER_WORD }),
    ...extra,
  };
}

let users = 0;

/** A client signed in as a newly registered user. */
export async function userClient(
  server: TestServer,
  extra: Partial<ClientOptions> = {},
  profile: Record<string, string> = {},
): Promise<Client & { username: string }> {
  const client = createClient(optionsFor(server, extra));
  const username = `user${++users}`;
  await client.auth.register({ username, password: `pw-${username}`, ...profile });
  await client.auth.login(username, `pw-${username}`);
  return Object.assign(client, { username });
}

/** A client signed in with the master key. */
export async function masterClient(server: TestServer, extra: Partial<ClientOptions> = {}): Promise<Client> {
  const client = createClient(optionsFor(server, extra));
  await client.auth.loginAsMaster(server.config.masterKey);
  return client;
}

/** Moves the server's clock forward (access tokens expire by it). */
export async function advanceClock(server: TestServer, seconds: number): Promise<void> {
  const res = await server.admin('/__admin/clock', {
    method: 'POST',
    body: JSON.stringify({ advanceSeconds: seconds }),
    headers: { 'Content-Type': 'application/json' },
  });
  if (!res.ok) throw new Error(`clock failed: ${res.status}`);
}

/** The address of a server that has just stopped: nothing answers there (a network failure, never a service error). */
export async function closedAddress(): Promise<string> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}
