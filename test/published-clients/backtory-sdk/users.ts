import { expect } from 'vitest';
import { login } from '../../../mock-server/test/support/users.js';
import type { TestServer } from '../../../mock-server/test/support/server.js';
import { settle } from './client.js';
import type { Case } from './case.js';

/** Logs in over the spec's own request; resolves when the credentials work. */
const logsIn = (server: TestServer, username: string, password: string) =>
  login(server, { username, password }, { 'X-Service-Authentication-Key': server.config.clientKey });

/** `lib/auth/auth.js` and `lib/auth/rest/authRest.js`: the users service, every call with the master token. */
export const USER_CASES: Case[] = [
  {
    operation: 'Users.signUp',
    async drive({ client, server }) {
      const [record] = await settle<[Record<string, unknown>]>((o) =>
        client.Users.signUp(
          { username: 'signed-up', password: 'pw-signed-up', firstName: 'Sig', email: 'signed-up@example.com' },
          o,
        ),
      );
      expect(record).toMatchObject({ username: 'signed-up', firstName: 'Sig', userId: expect.any(String) });
      await logsIn(server, 'signed-up', 'pw-signed-up');
    },
  },
  {
    operation: 'Users.guestSignUp',
    async drive({ client, server, service }) {
      const [guest] = await settle<[Record<string, unknown>]>((o) => client.Users.guestSignUp(o));
      // The client's own test reads `id`, `username` and `password` from this answer.
      expect(guest).toMatchObject({
        id: expect.any(String),
        username: expect.any(String),
        password: expect.any(String),
      });
      await logsIn(server, guest['username'] as string, guest['password'] as string);
      const record = await service.call('GET', `/auth/users/${guest['id'] as string}`, service.master);
      expect(record.body).toMatchObject({ guest: true, username: guest['username'] });
    },
  },
  {
    operation: 'Users.completeGuestRegistration',
    async drive({ client, server, service }) {
      const registered = await service.call('POST', '/auth/guest-users', {});
      expect(registered.status, 'setup: guest registration').toBeLessThan(300);
      // The spec's user record names the id `userId`; the client's own test reads it as `id`.
      const guest = registered.body as { userId?: string; id?: string; password: string };
      const userId = (guest.userId ?? guest.id)!;
      const [record] = await settle<[Record<string, unknown>]>((o) =>
        client.Users.completeGuestRegistration(
          {
            userId,
            newUsername: 'ex-guest',
            lastPassword: guest.password,
            newPassword: 'pw-ex-guest',
            firstName: 'Gus',
            lastName: 'Guest',
            email: 'ex-guest@example.com',
          },
          o,
        ),
      );
      expect(record).toMatchObject({ username: 'ex-guest' });
      await logsIn(server, 'ex-guest', 'pw-ex-guest');
      const stored = await service.call('GET', `/auth/users/${userId}`, service.master);
      expect(stored.body).toMatchObject({
        guest: false,
        username: 'ex-guest',
        firstName: 'Gus',
        email: 'ex-guest@example.com',
      });
    },
  },
  {
    operation: 'Users.update',
    async drive({ client, service }) {
      const user = await service.user('updated');
      const [record] = await settle<[Record<string, unknown>]>((o) =>
        client.Users.update(user.userId, { firstName: 'Renamed', lastName: 'Person' }, o),
      );
      expect(record).toMatchObject({ userId: user.userId, firstName: 'Renamed', lastName: 'Person' });
      const stored = await service.call('GET', `/auth/users/${user.userId}`, service.master);
      expect(stored.body).toMatchObject({ firstName: 'Renamed', lastName: 'Person' });
    },
  },
  {
    operation: 'Users.search',
    async drive({ client, service }) {
      const user = await service.user('findable');
      const [users, userCount] = await settle<[Record<string, unknown>[], number]>((o) =>
        client.Users.search('findable', 0, 10, o),
      );
      const expected = await service.call<{ users: unknown[]; userCount: number }>(
        'GET',
        '/auth/users/search?word=findable&page=0&pageSize=10',
        service.master,
      );
      expect(users.map((u) => u['userId'])).toContain(user.userId);
      expect(users).toEqual(expected.body.users);
      expect(userCount).toBe(expected.body.userCount);
    },
  },
  {
    operation: 'Users.count',
    async drive({ client, service }) {
      await service.user('counted');
      const [count] = await settle<[number]>((o) => client.Users.count(o));
      const listed = await service.call<{ userCount: number }>('GET', '/auth/users?page=1&pageSize=1', service.master);
      expect(count).toBe(listed.body.userCount);
    },
  },
  {
    operation: 'Users.getByUserName',
    async drive({ client, service }) {
      const user = await service.user('named');
      const [record] = await settle<[Record<string, unknown>]>((o) => client.Users.getByUserName(user.username, o));
      expect(record).toMatchObject({ userId: user.userId, username: user.username });
    },
  },
  {
    operation: 'Users.getByUserId',
    async drive({ client, service }) {
      const user = await service.user('identified');
      const [record] = await settle<[Record<string, unknown>]>((o) => client.Users.getByUserId(user.userId, o));
      expect(record).toMatchObject({ userId: user.userId, username: user.username });
    },
  },
  {
    operation: 'Users.getByUserIds',
    async drive({ client, service }) {
      const [first, second] = [await service.user('listed'), await service.user('listed')];
      const [records] = await settle<[Record<string, unknown>[]]>((o) =>
        client.Users.getByUserIds([first.userId, second.userId], o),
      );
      expect(records.map((r) => r['userId']).sort()).toEqual([first.userId, second.userId].sort());
    },
  },
  {
    operation: 'Users.delete',
    async drive({ client, server, service }) {
      const user = await service.user('deleted');
      await settle((o) => client.Users.delete(user.userId, o));
      const stored = await service.call('GET', `/auth/users/${user.userId}`, service.master);
      expect(stored.status, 'the deleted user is still there').toBe(404);
      await expect(logsIn(server, user.username, user.password)).rejects.toThrow(/401/);
    },
  },
];
