import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, masterAuth, type TestUser } from '../support/users.js';
import { advanceClock, clientKey, expectStatus, loginRequest, masterKey, usersCall } from './helpers.js';

const ACCESS_TTL = 600;
const REFRESH_TTL = 3600;

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await startTestServer({ accessTokenTtlSeconds: ACCESS_TTL, refreshTokenTtlSeconds: REFRESH_TTL });
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  ann = await createUser(server, 'ann');
});

const renewal = (refreshToken: string) =>
  loginRequest(
    server,
    { refresh_token: refreshToken },
    { ...clientKey(server), 'X-Service-Authentication-Refresh': '1' },
  );
const logout = (refreshToken: string | undefined, headers: Record<string, string> = clientKey(server)) =>
  server.request(
    `/auth/logout${refreshToken === undefined ? '' : `?refresh-token=${encodeURIComponent(refreshToken)}`}`,
    {
      method: 'DELETE',
      headers: { ...authIdHeader(server), ...headers },
    },
  );

describe('access token expiry (server clock)', () => {
  it('reports the configured lifetime in expires_in', async () => {
    const body = await expectStatus(
      await loginRequest(server, { username: 'ann', password: ann.password }, clientKey(server)),
      200,
    );
    expect(body['expires_in']).toBe(ACCESS_TTL);
  });

  it('accepts a user token until expires_in seconds have passed, then answers 401', async () => {
    await advanceClock(server, ACCESS_TTL - 2);
    await expectStatus(await usersCall(server, '/auth/users/me', ann.auth), 200);
    await advanceClock(server, 2);
    await expectStatus(await usersCall(server, '/auth/users/me', ann.auth), 401, ErrorCode.INVALID_TOKEN);
  });

  it('expires master tokens the same way', async () => {
    const master = await masterAuth(server);
    await advanceClock(server, ACCESS_TTL);
    await expectStatus(await usersCall(server, '/auth/users', master), 401, ErrorCode.INVALID_TOKEN);
  });

  it('lets the caller renew after expiry and use the new token', async () => {
    await advanceClock(server, ACCESS_TTL);
    const body = await expectStatus(await renewal(ann.refreshToken), 200);
    await expectStatus(
      await usersCall(server, '/auth/users/me', { Authorization: `Bearer ${body['access_token'] as string}` }),
      200,
    );
  });
});

describe('refresh token expiry (refreshTokenTtlSeconds)', () => {
  it('renews until the lifetime has passed, then answers 401', async () => {
    await advanceClock(server, REFRESH_TTL - 2);
    await expectStatus(await renewal(ann.refreshToken), 200);
    await advanceClock(server, 2);
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
  });

  it('is not extended by renewals', async () => {
    await advanceClock(server, REFRESH_TTL / 2);
    await expectStatus(await renewal(ann.refreshToken), 200);
    await advanceClock(server, REFRESH_TTL / 2);
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
  });

  it('stays refused after expiry, however often it is tried', async () => {
    await advanceClock(server, REFRESH_TTL);
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
  });

  it('changes nothing when it refuses an expired token; the next login drops it', async () => {
    await advanceClock(server, REFRESH_TTL);
    const tokensInState = async () => {
      const { areas } = (await (await server.admin('/__admin/state')).json()) as {
        areas: { users: { refreshTokenDigests: [string, unknown][] } };
      };
      return areas.users.refreshTokenDigests.map(([digest]) => digest);
    };
    // The state keeps each refresh token as its SHA-256, never the token.
    const annsToken = createHash('sha256').update(ann.refreshToken).digest('hex');
    const before = await tokensInState();
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
    expect(await tokensInState()).toEqual(before);
    expect(before).toContain(annsToken);
    await expectStatus(
      await loginRequest(server, { username: ann.username, password: ann.password }, clientKey(server)),
      200,
    );
    expect(await tokensInState()).not.toContain(annsToken);
  });
});

describe('DELETE /auth/logout', () => {
  it('answers 200 {} and expires the refresh token', async () => {
    expect(await expectStatus(await logout(ann.refreshToken), 200)).toEqual({});
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
  });

  it('expires only the token given: another login of the same user still renews', async () => {
    const second = await expectStatus(
      await loginRequest(server, { username: 'ann', password: ann.password }, clientKey(server)),
      200,
    );
    await expectStatus(await logout(ann.refreshToken), 200);
    await expectStatus(await renewal(second['refresh_token'] as string), 200);
  });

  it('leaves access tokens already issued valid until they expire', async () => {
    await expectStatus(await logout(ann.refreshToken), 200);
    await expectStatus(await usersCall(server, '/auth/users/me', ann.auth), 200);
  });

  it('is idempotent: an unknown, expired or already expired token answers 200 too', async () => {
    await expectStatus(await logout(ann.refreshToken), 200);
    expect(await expectStatus(await logout(ann.refreshToken), 200)).toEqual({});
    await expectStatus(await logout('never-issued'), 200);
  });

  it('accepts the master key, so an administrator can expire a user session', async () => {
    await expectStatus(await logout(ann.refreshToken, masterKey(server)), 200);
    await expectStatus(await renewal(ann.refreshToken), 401, ErrorCode.INVALID_REFRESH_TOKEN);
  });

  it('answers 400 without the refresh-token parameter', async () => {
    await expectStatus(await logout(undefined), 400, ErrorCode.VALIDATION_FAILED);
    await expectStatus(await logout(''), 400, ErrorCode.VALIDATION_FAILED);
  });

  it('answers 417 to a wrong key or authentication id and expires nothing', async () => {
    await expectStatus(
      await logout(ann.refreshToken, { 'X-Service-Authentication-Key': 'wrong' }),
      417,
      ErrorCode.INVALID_KEY,
    );
    await expectStatus(
      await logout(ann.refreshToken, { ...clientKey(server), 'X-Service-Authentication-Id': 'wrong' }),
      417,
      ErrorCode.UNKNOWN_PROJECT,
    );
    await expectStatus(await renewal(ann.refreshToken), 200);
  });
});
