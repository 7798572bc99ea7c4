import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, masterAuth, type TestUser } from '../support/users.js';

export type Json = Record<string, unknown>;

/** POST /auth/users with a JSON body; `headers` replace the authentication id header when given. */
export function registerRequest(
  server: TestServer,
  body: unknown,
  headers: Record<string, string> = authIdHeader(server),
): Promise<Response> {
  return server.request('/auth/users', {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** POST /auth/login with a multipart form (none when `form` is undefined) and the given key headers. */
export function loginRequest(
  server: TestServer,
  form: Record<string, string> | undefined,
  headers: Record<string, string>,
): Promise<Response> {
  let body: FormData | undefined;
  if (form) {
    body = new FormData();
    for (const [k, v] of Object.entries(form)) body.set(k, v);
  }
  return server.request('/auth/login', { method: 'POST', headers: { ...authIdHeader(server), ...headers }, body });
}

export const clientKey = (server: TestServer) => ({ 'X-Service-Authentication-Key': server.config.clientKey });
export const masterKey = (server: TestServer) => ({ 'X-Service-Authentication-Key': server.config.masterKey });

/** A user-service call with the authentication id and the given extra headers (an Authorization, usually). */
export function usersCall(
  server: TestServer,
  path: string,
  headers: Record<string, string>,
  init: { method?: string; body?: unknown } = {},
): Promise<Response> {
  const json = init.body !== undefined;
  return server.request(path, {
    method: init.method ?? 'GET',
    headers: { ...authIdHeader(server), ...(json ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: json ? JSON.stringify(init.body) : undefined,
  });
}

/** Asserts the status and, for errors, the `{code, error}` shape with this code; returns the body. */
export async function expectStatus(res: Response, status: number, code?: number): Promise<Json> {
  const body = (await res.json()) as Json;
  expect({ status: res.status, body }).toMatchObject({ status });
  if (code !== undefined) expect(body).toEqual({ code, error: expect.any(String) });
  return body;
}

export async function advanceClock(server: TestServer, seconds: number): Promise<void> {
  const res = await server.admin('/__admin/clock', {
    method: 'POST',
    body: JSON.stringify({ advanceSeconds: seconds }),
  });
  expect(res.status).toBe(200);
}

/** The people of a lookup or update test: ann (with a profile and an extra field), bob and the master token. */
export interface Cast {
  server: TestServer;
  ann: TestUser;
  bob: TestUser;
  master: Record<string, string>;
}

/** Starts a server for this test file and, before each test, resets it and registers ann and bob afresh. */
export function useCast(): Cast {
  const cast = {} as Cast;
  beforeAll(async () => {
    cast.server = await startTestServer();
  });
  afterAll(() => cast.server.close());
  beforeEach(async () => {
    await cast.server.reset();
    cast.ann = await createUser(cast.server, 'ann', {
      firstName: 'Ann',
      email: 'ann@example.com',
      avatar: 'a.png',
      city: 'Rome',
    });
    cast.bob = await createUser(cast.server, 'bob');
    cast.master = await masterAuth(cast.server);
  });
  return cast;
}
