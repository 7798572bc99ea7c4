import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, type TestUser } from '../support/users.js';
import { clientKey, expectStatus, loginRequest, masterKey, usersCall } from './helpers.js';

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  ann = await createUser(server, 'ann');
});

const refresh = { 'X-Service-Authentication-Refresh': '1' };
const bearer = (body: Record<string, unknown>) => ({ Authorization: `Bearer ${body['access_token'] as string}` });

describe('POST /auth/login, user login (client key)', () => {
  it('answers 200 with a client token response whose access token works', async () => {
    const body = await expectStatus(
      await loginRequest(server, { username: 'ann', password: ann.password }, clientKey(server)),
      200,
    );
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      refresh_token: expect.any(String),
      expires_in: 7199,
      scope: 'client',
      jti: expect.any(String),
    });
    const me = await expectStatus(await usersCall(server, '/auth/users/me', bearer(body)), 200);
    expect(me['userId']).toBe(ann.userId);
  });

  it('gives each login its own refresh token and jti', async () => {
    const a = await expectStatus(
      await loginRequest(server, { username: 'ann', password: ann.password }, clientKey(server)),
      200,
    );
    const b = await expectStatus(
      await loginRequest(server, { username: 'ann', password: ann.password }, clientKey(server)),
      200,
    );
    expect(a['refresh_token']).not.toBe(b['refresh_token']);
    expect(a['jti']).not.toBe(b['jti']);
  });

  it('accepts an URL-encoded form too', async () => {
    const res = await server.request('/auth/login', {
      method: 'POST',
      headers: { ...authIdHeader(server), ...clientKey(server), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'ann', password: ann.password }).toString(),
    });
    expect((await expectStatus(res, 200))['scope']).toBe('client');
  });

  it.each([
    ['a wrong password', { username: 'ann', password: 'nope' }],
    ['an unknown username', { username: 'nobody', password: 'pw' }],
    ['no password', { username: 'ann' }],
    ['no form at all', undefined],
  ])('answers 401 to %s', async (_, form) => {
    await expectStatus(await loginRequest(server, form, clientKey(server)), 401, ErrorCode.INVALID_CREDENTIALS);
  });

  it('answers 400 to a multipart body that does not parse', async () => {
    const res = await server.request('/auth/login', {
      method: 'POST',
      headers: { ...authIdHeader(server), ...clientKey(server), 'Content-Type': 'multipart/form-data; boundary=xyz' },
      body: 'not a multipart body',
    });
    await expectStatus(res, 400, ErrorCode.VALIDATION_FAILED);
  });

  // Only CRLF "--" boundary ends a part (RFC 2046): the boundary's text elsewhere in a value is data. Node 20's own
  // form parser (undici's) refused these bodies.
  it.each([
    ['the boundary text', (boundary: string) => `pw${boundary}pw`],
    ['"--" and the boundary text', (boundary: string) => `pw--${boundary}pw`],
    ['a line break and the boundary text', (boundary: string) => `pw\r\n${boundary}`],
    ['the closing delimiter without its line break', (boundary: string) => `pw--${boundary}--`],
  ])('accepts a multipart login whose password holds %s', async (_, passwordWith) => {
    const boundary = 'basekit-login-form-7f3a';
    const password = passwordWith(boundary);
    const fields = { username: 'bo', password };
    const registered = await server.request('/auth/users', {
      method: 'POST',
      headers: { ...authIdHeader(server), 'Content-Type': 'application/json' },
      body: JSON.stringify(fields),
    });
    await expectStatus(registered, 200);
    const res = await server.request('/auth/login', {
      method: 'POST',
      headers: {
        ...authIdHeader(server),
        ...clientKey(server),
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
      body: Object.entries(fields)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .concat(`--${boundary}--\r\n`)
        .join(''),
    });
    expect((await expectStatus(res, 200))['scope']).toBe('client');
  });

  it('answers 417 to a wrong or missing key, and to a wrong authentication id', async () => {
    const form = { username: 'ann', password: ann.password };
    await expectStatus(
      await loginRequest(server, form, { 'X-Service-Authentication-Key': 'wrong' }),
      417,
      ErrorCode.INVALID_KEY,
    );
    await expectStatus(await loginRequest(server, form, {}), 417, ErrorCode.INVALID_KEY);
    const wrongId = { ...clientKey(server), 'X-Service-Authentication-Id': 'wrong' };
    await expectStatus(await loginRequest(server, form, wrongId), 417, ErrorCode.UNKNOWN_PROJECT);
  });
});

describe('POST /auth/login, renewal (client key + refresh flag)', () => {
  it('answers 200 with a new access token and the same refresh token', async () => {
    const body = await expectStatus(
      await loginRequest(server, { refresh_token: ann.refreshToken }, { ...clientKey(server), ...refresh }),
      200,
    );
    expect(body).toMatchObject({
      token_type: 'bearer',
      scope: 'client',
      refresh_token: ann.refreshToken,
      expires_in: 7199,
    });
    expect(body['access_token']).not.toBe(ann.accessToken);
    const me = await expectStatus(await usersCall(server, '/auth/users/me', bearer(body)), 200);
    expect(me['userId']).toBe(ann.userId);
  });

  it('answers 401 to an unknown or missing refresh token', async () => {
    await expectStatus(
      await loginRequest(server, { refresh_token: 'forged' }, { ...clientKey(server), ...refresh }),
      401,
      ErrorCode.INVALID_REFRESH_TOKEN,
    );
    await expectStatus(
      await loginRequest(server, {}, { ...clientKey(server), ...refresh }),
      401,
      ErrorCode.INVALID_REFRESH_TOKEN,
    );
  });

  it('does not take an access token for a refresh token (401)', async () => {
    await expectStatus(
      await loginRequest(server, { refresh_token: ann.accessToken }, { ...clientKey(server), ...refresh }),
      401,
      ErrorCode.INVALID_REFRESH_TOKEN,
    );
  });

  it('answers 417 to a wrong key or authentication id', async () => {
    const form = { refresh_token: ann.refreshToken };
    await expectStatus(
      await loginRequest(server, form, { 'X-Service-Authentication-Key': 'wrong', ...refresh }),
      417,
      ErrorCode.INVALID_KEY,
    );
    const wrongId = { ...clientKey(server), ...refresh, 'X-Service-Authentication-Id': 'wrong' };
    await expectStatus(await loginRequest(server, form, wrongId), 417, ErrorCode.UNKNOWN_PROJECT);
  });
});

describe('POST /auth/login, master login (master key)', () => {
  it('answers 200 with a master token response without refresh token', async () => {
    const body = await expectStatus(await loginRequest(server, undefined, masterKey(server)), 200);
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'bearer',
      expires_in: 7199,
      scope: 'master',
      jti: expect.any(String),
    });
    await expectStatus(await usersCall(server, '/auth/users?page=0&pageSize=5', bearer(body)), 200);
  });

  it('ignores username and password: the key alone decides', async () => {
    const body = await expectStatus(
      await loginRequest(server, { username: 'ann', password: 'wrong' }, masterKey(server)),
      200,
    );
    expect(body['scope']).toBe('master');
  });

  it('answers 417 to a wrong authentication id', async () => {
    const wrongId = { ...masterKey(server), 'X-Service-Authentication-Id': 'wrong' };
    await expectStatus(await loginRequest(server, undefined, wrongId), 417, ErrorCode.UNKNOWN_PROJECT);
  });
});

describe('access tokens', () => {
  it.each([
    ['no Authorization header', {}],
    ['a forged token', { Authorization: 'Bearer abc.def.ghi' }],
    ['a token without its type', { Authorization: 'x' }],
  ])('answer 401 to %s', async (_, headers) => {
    await expectStatus(await usersCall(server, '/auth/users/me', headers), 401, ErrorCode.INVALID_TOKEN);
  });

  it('accept the token type in any case, as the examples use both Bearer and bearer', async () => {
    await expectStatus(await usersCall(server, '/auth/users/me', { Authorization: `bearer ${ann.accessToken}` }), 200);
    await expectStatus(await usersCall(server, '/auth/users/me', { Authorization: `BEARER ${ann.accessToken}` }), 200);
  });

  it('of another project are refused (401)', async () => {
    const other = await startTestServer({ authenticationId: 'other-project' });
    try {
      const stranger = await createUser(other, 'ann');
      await expectStatus(await usersCall(server, '/auth/users/me', stranger.auth), 401, ErrorCode.INVALID_TOKEN);
    } finally {
      await other.close();
    }
  });
});
