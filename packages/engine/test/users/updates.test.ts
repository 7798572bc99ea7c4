import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { clientKey, expectStatus, loginRequest, registerRequest, usersCall, type Json, useCast } from './helpers.js';

const cast = useCast();

const annRecord = async () =>
  expectStatus(await usersCall(cast.server, `/auth/users/${cast.ann.userId}`, cast.master), 200);

// The two updates: [name, path for cast.ann, who may call it].
const updates: [string, () => string, () => Record<string, string>][] = [
  ['PUT /auth/users/me', () => '/auth/users/me', () => cast.ann.auth],
  ['PUT /auth/users/{userId}', () => `/auth/users/${cast.ann.userId}`, () => cast.master],
];

describe.each(updates)('%s', (_, path, auth) => {
  const put = (body: unknown, headers = auth()) => usersCall(cast.server, path(), headers, { method: 'PUT', body });

  it('changes the five profile fields and answers the record without avatar', async () => {
    const change = {
      username: 'anna',
      firstName: 'Anna',
      lastName: 'Lee',
      email: 'anna@example.com',
      phoneNumber: '+39',
    };
    const body = await expectStatus(await put(change), 200);
    expect(body).toEqual({
      ...change,
      instanceId: cast.server.config.authenticationId,
      userId: cast.ann.userId,
      guest: false,
      active: true,
      city: 'Rome',
    });
    expect(await annRecord()).toEqual(body);
  });

  it('changes only the fields given', async () => {
    const body = await expectStatus(await put({ lastName: 'Lee' }), 200);
    expect(body).toMatchObject({ username: 'ann', firstName: 'Ann', lastName: 'Lee' });
    expect(await expectStatus(await put({}), 200)).toEqual(body);
  });

  it('moves the username: login and lookup use the new one, the old one is free again', async () => {
    await expectStatus(await put({ username: 'anna' }), 200);
    await expectStatus(
      await loginRequest(cast.server, { username: 'anna', password: cast.ann.password }, clientKey(cast.server)),
      200,
    );
    await expectStatus(
      await loginRequest(cast.server, { username: 'ann', password: cast.ann.password }, clientKey(cast.server)),
      401,
      ErrorCode.INVALID_CREDENTIALS,
    );
    expect(
      (await expectStatus(await usersCall(cast.server, '/auth/users/by-username/anna', cast.master), 200))['userId'],
    ).toBe(cast.ann.userId);
    await expectStatus(await registerRequest(cast.server, { username: 'ann', password: 'pw' }), 200);
  });

  it("answers 409 to another user's username and changes nothing", async () => {
    await expectStatus(await put({ username: 'bob', firstName: 'Changed' }), 409, ErrorCode.USERNAME_TAKEN);
    expect(await annRecord()).toMatchObject({ username: 'ann', firstName: 'Ann' });
  });

  it('accepts its own username unchanged', async () => {
    await expectStatus(await put({ username: 'ann' }), 200);
  });

  it.each<[string, Json, number]>([
    ['a 41-character username', { username: 'x'.repeat(41) }, ErrorCode.VALIDATION_FAILED],
    ['a 41-character firstName', { firstName: 'x'.repeat(41) }, ErrorCode.VALIDATION_FAILED],
    ['a 41-character lastName', { lastName: 'x'.repeat(41) }, ErrorCode.VALIDATION_FAILED],
    ['an invalid e-mail', { email: 'not-an-email' }, ErrorCode.INVALID_EMAIL],
    ['an empty username', { username: '' }, ErrorCode.VALIDATION_FAILED],
    ['a non-string field', { phoneNumber: 5 }, ErrorCode.VALIDATION_FAILED],
    ['a password', { password: 'new' }, ErrorCode.VALIDATION_FAILED],
    ['an avatar', { avatar: 'b.png' }, ErrorCode.VALIDATION_FAILED],
    ['an extra field', { city: 'Oslo' }, ErrorCode.VALIDATION_FAILED],
    ['a server field', { active: false }, ErrorCode.VALIDATION_FAILED],
  ])('answers 400 to %s and changes nothing, not even the valid fields beside it', async (_, bad, code) => {
    const before = await annRecord();
    await expectStatus(await put({ firstName: 'Changed', ...bad }), 400, code);
    expect(await annRecord()).toEqual(before);
  });

  it('accepts exactly 40 characters', async () => {
    expect((await expectStatus(await put({ firstName: 'x'.repeat(40) }), 200))['firstName']).toBe('x'.repeat(40));
  });

  it('answers 400 to a body that is not a JSON object', async () => {
    await expectStatus(await put(['ann']), 400, ErrorCode.INVALID_JSON);
  });

  it('answers 401 without a valid token', async () => {
    await expectStatus(await put({ firstName: 'X' }, {}), 401, ErrorCode.INVALID_TOKEN);
  });

  it('answers 404 to a wrong authentication id', async () => {
    await expectStatus(
      await put({ firstName: 'X' }, { ...auth(), 'X-Service-Authentication-Id': 'wrong' }),
      404,
      ErrorCode.UNKNOWN_PROJECT,
    );
  });
});

describe('PUT /auth/users/me', () => {
  it('answers 404 to the master token, which belongs to no user', async () => {
    await expectStatus(
      await usersCall(cast.server, '/auth/users/me', cast.master, { method: 'PUT', body: { firstName: 'X' } }),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
  });
});

describe('PUT /auth/users/{userId}', () => {
  const putAnn = (headers: Record<string, string>) =>
    usersCall(cast.server, `/auth/users/${cast.ann.userId}`, headers, { method: 'PUT', body: { firstName: 'X' } });

  it("is master only: another user's token and even the user's own token get 403", async () => {
    await expectStatus(await putAnn(cast.bob.auth), 403, ErrorCode.OPERATION_FORBIDDEN);
    await expectStatus(await putAnn(cast.ann.auth), 403, ErrorCode.OPERATION_FORBIDDEN);
    expect((await annRecord())['firstName']).toBe('Ann');
  });

  it('answers 404 to an unknown user id', async () => {
    await expectStatus(
      await usersCall(cast.server, '/auth/users/nosuchuser', cast.master, { method: 'PUT', body: { firstName: 'X' } }),
      404,
      ErrorCode.USER_NOT_FOUND,
    );
  });
});
