// Error answers that explain themselves inside msw: 401s and 403s are the engine's, as on the server; a
// path of no operation is left to msw's onUnhandledRequest, where explainUnhandled names the closest operations.
import type { UnhandledRequestCallback } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers, explainUnhandled } from '../src/index.js';
import { authenticationId, signUp } from './support.js';

// A closed port of this machine: what msw lets through fails at once, without a network.
const BASE = 'http://127.0.0.1:9';
const backend = createHandlers({ baseUrl: BASE });
let onUnhandled: UnhandledRequestCallback = explainUnhandled('error');
const server = setupServer(...backend);
beforeAll(() => server.listen({ onUnhandledRequest: (request, print) => onUnhandled(request, print) }));
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

/** What `console[method]` printed while `run` ran. */
async function printed(method: 'warn' | 'error', run: () => Promise<unknown>): Promise<string> {
  const spy = vi.spyOn(console, method).mockImplementation(() => undefined);
  await run();
  return spy.mock.calls.map((call) => call.join(' ')).join('\n');
}

describe('a request of no operation, with explainUnhandled', () => {
  it("'error': names the closest operations, then fails the request as msw's 'error' does", async () => {
    onUnhandled = explainUnhandled('error');
    const output = await printed('error', () =>
      expect(fetch(`${BASE}/auth/user`, { method: 'POST' })).rejects.toThrow(),
    );
    expect(output).toContain(
      `[basekit] POST ${BASE}/auth/user: no such operation: POST /auth/user; the closest are POST /auth/users, `,
    );
    expect(output).toContain('intercepted a request without a matching request handler');
  });

  it("'warn': names them beside msw's warning and lets the request through", async () => {
    onUnhandled = explainUnhandled('warn');
    const output = await printed(
      'warn',
      () => expect(fetch(`${BASE}/auth/userz/u1`, { method: 'PUT' })).rejects.toThrow(), // nothing listens on port 9
    );
    expect(output).toContain(
      `[basekit] PUT ${BASE}/auth/userz/u1: no such operation: PUT /auth/userz/u1; the closest are PUT /auth/users/{userId}, `,
    );
    expect(output).toContain('intercepted a request without a matching request handler');
  });

  it("prints msw's message only for a request that is not the service's", async () => {
    onUnhandled = explainUnhandled('error');
    const output = await printed('error', () => expect(fetch('http://127.0.0.1:10/auth/user')).rejects.toThrow());
    expect(output).toContain('intercepted a request without a matching request handler');
    expect(output).not.toContain('[basekit]');
  });
});

describe('401 and 403 inside msw say why', () => {
  const me = (headers: Record<string, string>) =>
    fetch(`${BASE}/auth/users/me`, { headers: { 'X-Service-Authentication-Id': authenticationId, ...headers } });

  it('a 401 names its cause', async () => {
    expect(await (await me({})).json()).toEqual({
      code: 209,
      error: 'the Authorization header is missing: send "Bearer <access_token>"',
    });
    expect(await (await me({ Authorization: 'Bearer abc' })).json()).toMatchObject({
      code: 209,
      error: expect.stringContaining('the access token is malformed'),
    });
  });

  it('a 403 names the missing permission', async () => {
    const { auth } = await signUp(BASE, 'ann');
    const res = await fetch(`${BASE}/auth/users`, {
      headers: { 'X-Service-Authentication-Id': authenticationId, ...auth },
    });
    expect([res.status, await res.json()]).toEqual([
      403,
      { code: 119, error: "this operation requires the master token; this is a user's token (scope client)" },
    ]);
  });
});
