import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Config } from '@basekit/engine';
import { createHandlers } from '../src/index.js';
import { BASE, authenticationId, json, masterKey } from './support.js';

// The engine is the same inside msw: projects are created with the admin API and kept apart, in memory.

const server = setupServer(...createHandlers({ baseUrl: BASE }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('creates a project whose users are its own, and refuses its token in the default project', async () => {
  const created = await fetch(
    `${BASE}/__admin/projects`,
    json('POST', {}, { 'X-Service-Authentication-Key': masterKey }),
  );
  expect(created.status).toBe(201);
  const { config } = (await created.json()) as { config: Config };
  const register = await fetch(
    `${BASE}/auth/users`,
    json('POST', { username: 'ann', password: 'pw' }, { 'X-Service-Authentication-Id': config.authenticationId }),
  );
  expect(register.status).toBe(200);
  const login = await fetch(`${BASE}/auth/login`, {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': config.authenticationId,
      'X-Service-Authentication-Key': config.masterKey,
    },
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const count = (id: string) =>
    fetch(`${BASE}/auth/users/get-number-of-user`, {
      headers: { 'X-Service-Authentication-Id': id, Authorization: `Bearer ${token}` },
    });
  expect(await (await count(config.authenticationId)).json()).toEqual({ numberOfUser: 1 });
  expect((await count(authenticationId)).status).toBe(401);
});
