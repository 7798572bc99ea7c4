// Admin API calls for the panel's user actions that the service's API has no operation for.
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/users.js';
import { clientKey, expectStatus, loginRequest, registerRequest, useCast } from './helpers.js';

describe('POST /__admin/users/{userId}/activate', () => {
  const cast = useCast();

  it('activates a user who has not confirmed the e-mail, who can then log in', async () => {
    const { server } = cast;
    await server.patchConfig({ emailConfirmation: true });
    const created = await expectStatus(
      await registerRequest(server, { username: 'cleo', password: 'pw-cleo', email: 'cleo@example.com' }),
      200,
    );
    expect(created['active']).toBe(false);
    await expectStatus(
      await loginRequest(server, { username: 'cleo', password: 'pw-cleo' }, clientKey(server)),
      401,
      215,
    );
    const activated = await expectStatus(
      await server.admin(`/__admin/users/${created['userId'] as string}/activate`, { method: 'POST' }),
      200,
    );
    expect(activated).toMatchObject({ userId: created['userId'], username: 'cleo', active: true });
    await expectStatus(await loginRequest(server, { username: 'cleo', password: 'pw-cleo' }, clientKey(server)), 200);
  });

  it('answers 404 for an unknown user and 403 without the master key', async () => {
    const { server, ann } = cast;
    await expectStatus(await server.admin('/__admin/users/nobody/activate', { method: 'POST' }), 404, 214);
    await expectStatus(await server.request(`/__admin/users/${ann.userId}/activate`, { method: 'POST' }), 403, 119);
  });
});

describe('POST /__admin/users/{userId}/sign-out', () => {
  const cast = useCast();
  const renew = (refreshToken: string) =>
    loginRequest(
      cast.server,
      { refresh_token: refreshToken },
      { ...clientKey(cast.server), 'X-Service-Authentication-Refresh': '1' },
    );

  it("expires every refresh token of the user, and no one else's", async () => {
    const { server, ann, bob } = cast;
    const second = await createUser(server, 'ann2');
    const annAgain = (await (
      await loginRequest(server, { username: 'ann', password: ann.password }, clientKey(server))
    ).json()) as { refresh_token: string };
    const res = await server.admin(`/__admin/users/${ann.userId}/sign-out`, { method: 'POST' });
    expect(await expectStatus(res, 200)).toEqual({ expiredRefreshTokens: 2 });
    await expectStatus(await renew(ann.refreshToken), 401, 213);
    await expectStatus(await renew(annAgain.refresh_token), 401, 213);
    await expectStatus(await renew(bob.refreshToken), 200);
    await expectStatus(await renew(second.refreshToken), 200);
    // Done already: nothing left to expire.
    expect(
      await expectStatus(await server.admin(`/__admin/users/${ann.userId}/sign-out`, { method: 'POST' }), 200),
    ).toEqual({ expiredRefreshTokens: 0 });
  });

  it('answers 404 for an unknown user and 403 without the master key', async () => {
    const { server, ann } = cast;
    await expectStatus(await server.admin('/__admin/users/nobody/sign-out', { method: 'POST' }), 404, 214);
    await expectStatus(await server.request(`/__admin/users/${ann.userId}/sign-out`, { method: 'POST' }), 403, 119);
  });
});
