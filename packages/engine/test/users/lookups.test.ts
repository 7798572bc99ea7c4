import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { createUser } from '../support/users.js';
import { expectStatus, usersCall, useCast } from './helpers.js';

const cast = useCast();

const wrongId = { 'X-Service-Authentication-Id': 'wrong' };

// The three lookups, each as [name, path for ann].
const lookups: [string, () => string][] = [
  ['GET /auth/users/me', () => '/auth/users/me'],
  ['GET /auth/users/{userId}', () => `/auth/users/${cast.ann.userId}`],
  ['GET /auth/users/by-username/{username}', () => '/auth/users/by-username/ann'],
];

describe.each(lookups)('%s', (_, path) => {
  it("answers 200 with the user's record, without avatar, to the user's own token", async () => {
    const body = await expectStatus(await usersCall(cast.server, path(), cast.ann.auth), 200);
    expect(body).toEqual({
      instanceId: cast.server.config.authenticationId,
      userId: cast.ann.userId,
      username: 'ann',
      firstName: 'Ann',
      lastName: '',
      email: 'ann@example.com',
      phoneNumber: '',
      guest: false,
      active: true,
      city: 'Rome',
    });
  });

  it('answers 401 without a token or with an incorrect one', async () => {
    await expectStatus(await usersCall(cast.server, path(), {}), 401, ErrorCode.INVALID_TOKEN);
    await expectStatus(
      await usersCall(cast.server, path(), { Authorization: `Bearer ${cast.ann.accessToken}x` }),
      401,
      ErrorCode.INVALID_TOKEN,
    );
  });

  it('answers 404 to a wrong authentication id, even with a valid token', async () => {
    await expectStatus(
      await usersCall(cast.server, path(), { ...cast.ann.auth, ...wrongId }),
      404,
      ErrorCode.UNKNOWN_PROJECT,
    );
  });

  it('answers 401 to the token of a user that no longer exists (after an admin reset)', async () => {
    await cast.server.reset();
    await expectStatus(await usersCall(cast.server, path(), cast.ann.auth), 401, ErrorCode.INVALID_TOKEN);
  });
});

describe('GET /auth/users/{userId} and /auth/users/by-username/{username} by others', () => {
  it('answer 200 to the master token', async () => {
    expect(
      (await expectStatus(await usersCall(cast.server, `/auth/users/${cast.ann.userId}`, cast.master), 200))[
        'username'
      ],
    ).toBe('ann');
    expect(
      (await expectStatus(await usersCall(cast.server, '/auth/users/by-username/ann', cast.master), 200))['userId'],
    ).toBe(cast.ann.userId);
  });

  it("answer 403 to another user's token", async () => {
    await expectStatus(
      await usersCall(cast.server, `/auth/users/${cast.ann.userId}`, cast.bob.auth),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
    await expectStatus(
      await usersCall(cast.server, '/auth/users/by-username/ann', cast.bob.auth),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
  });

  it('answer 403, not 404, to a user token asking for a user that does not exist (nothing is revealed)', async () => {
    await expectStatus(
      await usersCall(cast.server, '/auth/users/nosuchuser', cast.bob.auth),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
    await expectStatus(
      await usersCall(cast.server, '/auth/users/by-username/nobody', cast.bob.auth),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
  });

  it('answer 404 to the master token asking for a user that does not exist', async () => {
    await expectStatus(
      await usersCall(cast.server, '/auth/users/nosuchuser', cast.master),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
    await expectStatus(
      await usersCall(cast.server, '/auth/users/by-username/nobody', cast.master),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
  });

  it('find usernames that need URL encoding', async () => {
    const odd = await createUser(cast.server, 'a b/ü');
    const body = await expectStatus(
      await usersCall(cast.server, `/auth/users/by-username/${encodeURIComponent('a b/ü')}`, odd.auth),
      200,
    );
    expect(body['userId']).toBe(odd.userId);
  });
});

describe('GET /auth/users/me', () => {
  it('answers 404 to the master token, which belongs to no user', async () => {
    await expectStatus(await usersCall(cast.server, '/auth/users/me', cast.master), 404, ErrorCode.USER_NOT_FOUND);
  });

  it('answers each user with their own record', async () => {
    expect((await expectStatus(await usersCall(cast.server, '/auth/users/me', cast.bob.auth), 200))['userId']).toBe(
      cast.bob.userId,
    );
  });
});
