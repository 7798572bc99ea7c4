import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth } from '../support/users.js';
import { expectStatus, registerRequest, usersCall } from './helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const full = {
  username: 'ann',
  password: 'secret',
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.com',
  phoneNumber: '+4912345',
  avatar: 'https://img.example/ann.png',
};

describe('POST /auth/users (register)', () => {
  it('answers 200 with the whole record, avatar included, and no password', async () => {
    const body = await expectStatus(await registerRequest(server, full), 200);
    expect(body).toEqual({
      instanceId: server.config.authenticationId,
      userId: expect.stringMatching(/^[A-Za-z0-9]+$/),
      username: 'ann',
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.com',
      phoneNumber: '+4912345',
      avatar: 'https://img.example/ann.png',
      guest: false,
      active: true,
    });
  });

  it('needs only username and password; the other fields come back empty', async () => {
    const body = await expectStatus(await registerRequest(server, { username: 'bob', password: 'pw' }), 200);
    expect(body).toMatchObject({
      username: 'bob',
      firstName: '',
      lastName: '',
      email: '',
      phoneNumber: '',
      avatar: '',
      active: true,
    });
  });

  it('keeps extra string fields and returns them in every record, but the avatar only at registration', async () => {
    const registered = await expectStatus(await registerRequest(server, { ...full, city: 'Berlin', team: 'red' }), 200);
    expect(registered).toMatchObject({ city: 'Berlin', team: 'red' });
    const fetched = await expectStatus(
      await usersCall(server, `/auth/users/${registered['userId'] as string}`, await masterAuth(server)),
      200,
    );
    expect(fetched).toMatchObject({ city: 'Berlin', team: 'red', username: 'ann' });
    expect(fetched).not.toHaveProperty('avatar');
    expect(fetched).not.toHaveProperty('password');
  });

  it.each([
    ['a number', { level: 3 }],
    ['a boolean', { vip: true }],
    ['null', { nickname: null }],
    ['an object', { address: { city: 'x' } }],
    ['a non-string avatar', { avatar: 5 }],
  ])('refuses an extra field holding %s with 400 and registers nobody', async (_, extra) => {
    await expectStatus(
      await registerRequest(server, { username: 'carl', password: 'pw', ...extra }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
    await expectStatus(await registerRequest(server, { username: 'carl', password: 'pw' }), 200);
  });

  it.each(['userId', 'instanceId', 'active', 'guest'])(
    'refuses the server-owned field %s as an extra field (400)',
    async (field) => {
      await expectStatus(
        await registerRequest(server, { username: 'dan', password: 'pw', [field]: 'x' }),
        400,
        ErrorCode.VALIDATION_FAILED,
      );
    },
  );

  it.each(['username', 'firstName', 'lastName'])(
    'accepts 40 characters in %s and refuses 41 with 400',
    async (field) => {
      const ok = await registerRequest(server, { username: 'eve', password: 'pw', [field]: 'x'.repeat(40) });
      await expectStatus(ok, 200);
      const tooLong = await registerRequest(server, { username: 'eve2', password: 'pw', [field]: 'y'.repeat(41) });
      await expectStatus(tooLong, 400, ErrorCode.VALIDATION_FAILED);
    },
  );

  it.each(['a@b.co', "o'hara+tag@mail.example.org", 'x_y@sub-domain.example'])(
    'accepts the e-mail %j',
    async (email) => {
      expect(
        (await expectStatus(await registerRequest(server, { username: 'gil', password: 'pw', email }), 200))['email'],
      ).toBe(email);
    },
  );

  it('counts characters, not UTF-16 units: 40 emoji fit in a name', async () => {
    await expectStatus(
      await registerRequest(server, { username: 'fay', password: 'pw', firstName: '😀'.repeat(40) }),
      200,
    );
    await expectStatus(
      await registerRequest(server, { username: 'fay2', password: 'pw', firstName: '😀'.repeat(41) }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });

  it.each([
    'plain',
    'no-at.example.com',
    'a@b',
    'a b@example.com',
    '@example.com',
    'a@b..com',
    'a@-b.com',
    'ann@exämple.com',
  ])('refuses the e-mail %j with 400', async (email) => {
    await expectStatus(
      await registerRequest(server, { username: 'gus', password: 'pw', email }),
      400,
      ErrorCode.INVALID_EMAIL,
    );
  });

  it.each([
    ['no username', { password: 'pw' }],
    ['no password', { username: 'hal' }],
    ['an empty username', { username: '', password: 'pw' }],
    ['an empty password', { username: 'hal', password: '' }],
    ['a numeric username', { username: 7, password: 'pw' }],
    ['a numeric phone number', { username: 'hal', password: 'pw', phoneNumber: 123 }],
  ])('refuses a body with %s (400)', async (_, body) => {
    await expectStatus(await registerRequest(server, body), 400, ErrorCode.VALIDATION_FAILED);
  });

  it('refuses a body that is not a JSON object (400)', async () => {
    await expectStatus(await registerRequest(server, '{"username":'), 400, ErrorCode.INVALID_JSON);
    await expectStatus(await registerRequest(server, '["ann"]'), 400, ErrorCode.INVALID_JSON);
  });

  it('answers 409 to a taken username and keeps the first user', async () => {
    const first = await createUser(server, 'ivy');
    await expectStatus(
      await registerRequest(server, { username: 'ivy', password: 'other' }),
      409,
      ErrorCode.USERNAME_TAKEN,
    );
    const me = await expectStatus(await usersCall(server, '/auth/users/me', first.auth), 200);
    expect(me['userId']).toBe(first.userId);
  });

  it('answers 409 to two concurrent registrations of one name, exactly once', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map(() => registerRequest(server, { username: 'jay', password: 'pw' })),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });

  it('answers 404 to a wrong or missing authentication id', async () => {
    await expectStatus(
      await registerRequest(server, full, { 'X-Service-Authentication-Id': 'wrong' }),
      404,
      ErrorCode.UNKNOWN_PROJECT,
    );
    await expectStatus(await registerRequest(server, full, {}), 404, ErrorCode.UNKNOWN_PROJECT);
  });
});
