// Guest registration and its completion: beyond the spec, as the published Node client calls them (docs/published-clients.md).
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { login } from '../support/users.js';
import { clientKey, expectStatus, usersCall, useCast, type Json } from './helpers.js';

const cast = useCast();

const signUpGuest = (body?: unknown, headers: Record<string, string> = {}) =>
  usersCall(cast.server, '/auth/guest-users', headers, { method: 'POST', ...(body === undefined ? {} : { body }) });

/** A new guest: its answer (with `id` and `password`). */
const newGuest = async () => expectStatus(await signUpGuest(), 201);

const complete = (body: Json, headers = cast.master) =>
  usersCall(cast.server, '/auth/guest-users/complete-registration-master', headers, { method: 'POST', body });

/** A completion body for `guest` with everything valid. */
const completion = (guest: Json, extra: Json = {}): Json => ({
  userId: guest['id'],
  newUsername: 'gus',
  lastPassword: guest['password'],
  newPassword: 'pw-gus',
  firstName: 'Gus',
  lastName: 'Guest',
  email: 'gus@example.com',
  ...extra,
});

/** The stored user, read with the master token. */
const stored = async (userId: unknown) =>
  expectStatus(await usersCall(cast.server, `/auth/users/${String(userId)}`, cast.master), 200);

describe('POST /auth/guest-users', () => {
  it('answers 201 with a guest user record, its id also as `id`, and a generated username and password that log in', async () => {
    const guest = await newGuest();
    expect(guest).toMatchObject({
      id: guest['userId'],
      userId: expect.any(String),
      username: expect.stringMatching(/^guest-/),
      password: expect.any(String),
      guest: true,
      active: true,
    });
    await login(
      cast.server,
      { username: guest['username'] as string, password: guest['password'] as string },
      clientKey(cast.server),
    );
    const record = await stored(guest['id']);
    expect(record).toMatchObject({ guest: true, username: guest['username'] });
    expect(record).not.toHaveProperty('password');
  });

  it('gives every guest its own username and password', async () => {
    const [a, b] = [await newGuest(), await newGuest()];
    expect(a['username']).not.toBe(b['username']);
    expect(a['password']).not.toBe(b['password']);
  });

  it('takes an empty body or {} and refuses any field (400), creating no one', async () => {
    await expectStatus(await signUpGuest({}), 201);
    await expectStatus(await signUpGuest({ username: 'chosen' }), 400, ErrorCode.VALIDATION_FAILED);
    await expectStatus(await signUpGuest([]), 400, ErrorCode.INVALID_JSON);
    const count = await expectStatus(await usersCall(cast.server, '/auth/users/get-number-of-user', cast.master), 200);
    expect(count).toEqual({ numberOfUser: 3 }); // ann, bob and the one guest of `{}`
  });

  it('answers 404 to a wrong authentication id', async () => {
    await expectStatus(
      await signUpGuest(undefined, { 'X-Service-Authentication-Id': 'wrong' }),
      404,
      ErrorCode.UNKNOWN_PROJECT,
    );
  });

  it('registers a guest active at once, even where registrations are confirmed by e-mail', async () => {
    await cast.server.patchConfig({ emailConfirmation: true });
    try {
      expect(await newGuest()).toMatchObject({ guest: true, active: true });
    } finally {
      await cast.server.patchConfig({ emailConfirmation: false });
    }
  });
});

describe('POST /auth/guest-users/complete-registration-master', () => {
  it('turns the guest into a registered user with the new username, password and profile; the same id', async () => {
    const guest = await newGuest();
    const record = await expectStatus(await complete(completion(guest)), 200);
    expect(record).toMatchObject({
      userId: guest['id'],
      username: 'gus',
      firstName: 'Gus',
      lastName: 'Guest',
      email: 'gus@example.com',
      guest: false,
    });
    expect(await stored(guest['id'])).toEqual(record);
    await login(cast.server, { username: 'gus', password: 'pw-gus' }, clientKey(cast.server));
    await expect(
      login(
        cast.server,
        { username: guest['username'] as string, password: guest['password'] as string },
        clientKey(cast.server),
      ),
    ).rejects.toThrow(/401/);
  });

  it("keeps the guest's sessions: a token issued before still works", async () => {
    const guest = await newGuest();
    const tokens = await login(
      cast.server,
      { username: guest['username'] as string, password: guest['password'] as string },
      clientKey(cast.server),
    );
    await expectStatus(await complete(completion(guest)), 200);
    const me = await expectStatus(
      await usersCall(cast.server, '/auth/users/me', { Authorization: `Bearer ${tokens['access_token'] as string}` }),
      200,
    );
    expect(me['username']).toBe('gus');
  });

  it.each([
    ['a missing userId', { userId: undefined }],
    ['a missing newUsername', { newUsername: undefined }],
    ['an empty newPassword', { newPassword: '' }],
    ['a missing lastPassword', { lastPassword: undefined }],
    ['an unknown field', { avatar: 'a.png' }],
    ['a firstName of 41 characters', { firstName: 'x'.repeat(41) }],
    ['a number as lastName', { lastName: 7 }],
  ])('answers 400 to %s and changes nothing', async (_, extra) => {
    const guest = await newGuest();
    await expectStatus(await complete(completion(guest, extra)), 400, ErrorCode.VALIDATION_FAILED);
    expect(await stored(guest['id'])).toMatchObject({ guest: true, username: guest['username'] });
  });

  it('answers 400 (code 125) to an invalid e-mail and (code 212) to a wrong lastPassword, changing nothing', async () => {
    const guest = await newGuest();
    await expectStatus(await complete(completion(guest, { email: 'not-an-address' })), 400, ErrorCode.INVALID_EMAIL);
    await expectStatus(
      await complete(completion(guest, { lastPassword: 'wrong' })),
      400,
      ErrorCode.INVALID_CREDENTIALS,
    );
    expect(await stored(guest['id'])).toMatchObject({ guest: true, username: guest['username'] });
  });

  it('answers 409 to a taken username (202) and to a user who is not a guest (217)', async () => {
    const guest = await newGuest();
    await expectStatus(await complete(completion(guest, { newUsername: 'ann' })), 409, ErrorCode.USERNAME_TAKEN);
    await expectStatus(await complete(completion(guest)), 200);
    await expectStatus(await complete(completion(guest, { newUsername: 'gus2' })), 409, ErrorCode.NOT_A_GUEST);
    await expectStatus(
      await complete({ ...completion(guest), userId: cast.ann.userId, lastPassword: cast.ann.password }),
      409,
      ErrorCode.NOT_A_GUEST,
    );
  });

  it('answers 404 to an unknown user', async () => {
    await expectStatus(
      await complete(completion({ id: 'no-such-user', password: 'x' })),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
  });

  it("refuses a user token, the guest's own too (403), and no token (401)", async () => {
    const guest = await newGuest();
    const tokens = await login(
      cast.server,
      { username: guest['username'] as string, password: guest['password'] as string },
      clientKey(cast.server),
    );
    await expectStatus(
      await complete(completion(guest), { Authorization: `Bearer ${tokens['access_token'] as string}` }),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
    await expectStatus(await complete(completion(guest), cast.ann.auth), 403, ErrorCode.OPERATION_FORBIDDEN);
    await expectStatus(await complete(completion(guest), {}), 401, ErrorCode.INVALID_TOKEN);
    expect(await stored(guest['id'])).toMatchObject({ guest: true });
  });
});
