// Counting and deleting users: beyond the spec, as the published Node client calls them (docs/published-clients.md).
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { player } from '../leaderboards/support.js';
import { login } from '../support/users.js';
import { clientKey, expectStatus, usersCall, useCast } from './helpers.js';

const cast = useCast();

const count = async () =>
  (await expectStatus(await usersCall(cast.server, '/auth/users/get-number-of-user', cast.master), 200))[
    'numberOfUser'
  ];
const remove = (userId: string, headers = cast.master) =>
  usersCall(cast.server, `/auth/users/${userId}`, headers, { method: 'DELETE' });

describe('GET /auth/users/get-number-of-user', () => {
  it('answers the number of users, guests included', async () => {
    expect(await count()).toBe(2);
    await expectStatus(await usersCall(cast.server, '/auth/guest-users', {}, { method: 'POST' }), 201);
    expect(await count()).toBe(3);
  });

  it('is a master operation like listing: 403 to a user token, 401 without one, 417 to a wrong authentication id', async () => {
    await expectStatus(
      await usersCall(cast.server, '/auth/users/get-number-of-user', cast.ann.auth),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
    await expectStatus(
      await usersCall(cast.server, '/auth/users/get-number-of-user', {}),
      401,
      ErrorCode.INVALID_TOKEN,
    );
    await expectStatus(
      await usersCall(cast.server, '/auth/users/get-number-of-user', {
        ...cast.master,
        'X-Service-Authentication-Id': 'wrong',
      }),
      417,
      ErrorCode.UNKNOWN_PROJECT,
    );
  });
});

describe('DELETE /auth/users/{userId}', () => {
  it('answers 200 {} and the user is gone: lookups 404, login 401, the name free again', async () => {
    expect(await expectStatus(await remove(cast.ann.userId), 200)).toEqual({});
    await expectStatus(
      await usersCall(cast.server, `/auth/users/${cast.ann.userId}`, cast.master),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
    await expectStatus(
      await usersCall(cast.server, '/auth/users/by-username/ann', cast.master),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
    await expect(
      login(cast.server, { username: 'ann', password: cast.ann.password }, clientKey(cast.server)),
    ).rejects.toThrow(/401/);
    expect(await count()).toBe(1);
    const again = await usersCall(
      cast.server,
      '/auth/users',
      {},
      { method: 'POST', body: { username: 'ann', password: 'pw' } },
    );
    await expectStatus(again, 200);
  });

  it("stops the user's access and refresh tokens at once", async () => {
    await expectStatus(await remove(cast.ann.userId), 200);
    await expectStatus(await usersCall(cast.server, '/auth/users/me', cast.ann.auth), 401, ErrorCode.INVALID_TOKEN);
    const form = new FormData();
    form.set('refresh_token', cast.ann.refreshToken);
    const renewal = await cast.server.request('/auth/login', {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': cast.server.config.authenticationId,
        ...clientKey(cast.server),
        'X-Service-Authentication-Refresh': '1',
      },
      body: form,
    });
    await expectStatus(renewal, 401, ErrorCode.INVALID_REFRESH_TOKEN);
  });

  it('takes their scores off every leaderboard; the others move up', async () => {
    await player(cast.server, cast.ann).event('match_end', { score: 90 });
    await player(cast.server, cast.bob).event('match_end', { score: 50 });
    await expectStatus(await remove(cast.ann.userId), 200);
    const top = await player(cast.server, cast.bob).top('high-score', 10);
    expect(top.usersProfile.map((p) => p.userBriefProfile.userId)).toEqual([cast.bob.userId]);
    expect(await player(cast.server, cast.bob).rank('high-score')).toEqual({ rank: 1, scores: [50, 0, 0] });
  });

  it('leaves the other users alone', async () => {
    await expectStatus(await remove(cast.ann.userId), 200);
    expect((await expectStatus(await usersCall(cast.server, '/auth/users/me', cast.bob.auth), 200))['username']).toBe(
      'bob',
    );
  });

  it('answers 404 to an unknown user (also the second time)', async () => {
    await expectStatus(await remove(cast.ann.userId), 200);
    await expectStatus(await remove(cast.ann.userId), 404, ErrorCode.USER_NOT_FOUND);
  });

  it("is master only: a user token, the user's own too, gets 403 and nothing changes; 404 to a wrong authentication id", async () => {
    await expectStatus(await remove(cast.ann.userId, cast.ann.auth), 403, ErrorCode.OPERATION_FORBIDDEN);
    await expectStatus(await remove(cast.ann.userId, cast.bob.auth), 403, ErrorCode.OPERATION_FORBIDDEN);
    await expectStatus(
      await remove(cast.ann.userId, { ...cast.master, 'X-Service-Authentication-Id': 'wrong' }),
      404,
      ErrorCode.UNKNOWN_PROJECT,
    );
    expect(await count()).toBe(2);
  });
});
