import { afterAll, beforeAll, describe, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { clientKey, expectStatus, loginRequest, masterKey, registerRequest, usersCall } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ services: { users: false } });
});
afterAll(() => server.close());

// Every operation of the area, each as [name, request].
const operations: [string, () => Promise<Response>][] = [
  ['register', () => registerRequest(server, { username: 'ann', password: 'pw' })],
  ['user login', () => loginRequest(server, { username: 'ann', password: 'pw' }, clientKey(server))],
  [
    'renewal',
    () =>
      loginRequest(server, { refresh_token: 'x' }, { ...clientKey(server), 'X-Service-Authentication-Refresh': '1' }),
  ],
  ['master login', () => loginRequest(server, undefined, masterKey(server))],
  ['logout', () => server.request('/auth/logout?refresh-token=x', { method: 'DELETE', headers: clientKey(server) })],
  ['get me', () => usersCall(server, '/auth/users/me', {})],
  ['update me', () => usersCall(server, '/auth/users/me', {}, { method: 'PUT', body: {} })],
  ['get by id', () => usersCall(server, '/auth/users/abc', {})],
  ['get by username', () => usersCall(server, '/auth/users/by-username/ann', {})],
  ['update by id', () => usersCall(server, '/auth/users/abc', {}, { method: 'PUT', body: {} })],
  ['search', () => usersCall(server, '/auth/users/search?word=a', {})],
  ['list', () => usersCall(server, '/auth/users', {})],
  ['by ids', () => usersCall(server, '/auth/users/by-user-ids', {}, { method: 'POST', body: { userIds: [] } })],
  ['confirm', () => server.request('/auth/confirm/abc')],
];

describe('the users service switched off (services.users false)', () => {
  it.each(operations)('answers 503 to %s', async (_, request) => {
    await expectStatus(await request(), 503, ErrorCode.SERVICE_DISABLED);
  });

  it('serves again once switched on at run time', async () => {
    await server.patchConfig({ services: { users: true } });
    await expectStatus(await registerRequest(server, { username: 'ann', password: 'pw' }), 200);
    await server.patchConfig({ services: { users: false } });
    await expectStatus(
      await registerRequest(server, { username: 'bob', password: 'pw' }),
      503,
      ErrorCode.SERVICE_DISABLED,
    );
  });
});
