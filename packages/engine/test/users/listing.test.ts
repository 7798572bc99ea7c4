import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { expectStatus, registerRequest, usersCall } from './helpers.js';

interface UserList {
  userCount: number;
  users: Record<string, unknown>[];
}

const COUNT = 25;
let server: TestServer;
let master: Record<string, string>;
let ann: TestUser;
/** userIds in registration order; ann is the first. */
const ids: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'ann', {
    firstName: 'Annabel',
    lastName: 'Stone',
    email: 'ann@mail.example',
    avatar: 'a.png',
  });
  ids.push(ann.userId);
  for (let i = 1; i < COUNT; i++) {
    const res = await registerRequest(server, {
      username: `user${String(i).padStart(2, '0')}`,
      password: 'pw',
      email: `u${i}@example.com`,
    });
    ids.push((await expectStatus(res, 200))['userId'] as string);
  }
  master = await masterAuth(server);
});
afterAll(() => server.close());

const get = async (path: string, headers = master) =>
  (await expectStatus(await usersCall(server, path, headers), 200)) as unknown as UserList;
const idsOf = (list: UserList) => list.users.map((u) => u['userId']);
const byIds = (body: unknown, headers = master) =>
  usersCall(server, '/auth/users/by-user-ids', headers, { method: 'POST', body });

describe('GET /auth/users (list)', () => {
  it('pages from 0, 20 per page by default, in registration order, userCount counting everyone', async () => {
    const first = await get('/auth/users');
    expect(first.userCount).toBe(COUNT);
    expect(idsOf(first)).toEqual(ids.slice(0, 20));
    const second = await get('/auth/users?page=1');
    expect(second.userCount).toBe(COUNT);
    expect(idsOf(second)).toEqual(ids.slice(20));
  });

  it('honours pageSize at its bounds 1 and 100', async () => {
    expect(idsOf(await get('/auth/users?page=3&pageSize=1'))).toEqual([ids[3]]);
    expect(idsOf(await get('/auth/users?page=0&pageSize=100'))).toEqual(ids);
  });

  it('answers an empty page past the end, still with the total userCount', async () => {
    expect(await get('/auth/users?page=5&pageSize=10')).toEqual({ userCount: COUNT, users: [] });
  });

  it('returns records without avatar', async () => {
    const [first] = (await get('/auth/users?pageSize=1')).users;
    expect(first).toMatchObject({ userId: ann.userId, firstName: 'Annabel', guest: false, active: true });
    expect(first).not.toHaveProperty('avatar');
  });

  it.each(['page=-1', 'pageSize=0', 'pageSize=101', 'page=x', 'pageSize=2.5'])('answers 400 to %s', async (query) => {
    await expectStatus(await usersCall(server, `/auth/users?${query}`, master), 400, ErrorCode.VALIDATION_FAILED);
  });
});

describe('GET /auth/users/search', () => {
  const search = async (word: string, paging = '') =>
    get(`/auth/users/search?word=${encodeURIComponent(word)}${paging}`);

  it.each([
    ['firstName', 'nabe'],
    ['lastName', 'stone'],
    ['username', 'AN'],
    ['email', 'mail.EXAMPLE'],
  ])('finds a user by a part of the %s, ignoring case', async (_, word) => {
    const found = await search(word);
    expect(found.userCount).toBe(1);
    expect(idsOf(found)).toEqual([ann.userId]);
  });

  it('pages the matches, userCount counting all of them', async () => {
    const page = await search('user', '&page=1&pageSize=5');
    expect(page.userCount).toBe(COUNT - 1);
    expect(idsOf(page)).toEqual(ids.slice(6, 11));
  });

  it('answers an empty list when nothing matches', async () => {
    expect(await search('zebra')).toEqual({ userCount: 0, users: [] });
  });

  it('answers 400 without a word, or with bad paging', async () => {
    await expectStatus(await usersCall(server, '/auth/users/search', master), 400, ErrorCode.VALIDATION_FAILED);
    await expectStatus(await usersCall(server, '/auth/users/search?word=', master), 400, ErrorCode.VALIDATION_FAILED);
    await expectStatus(
      await usersCall(server, '/auth/users/search?word=a&pageSize=101', master),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });
});

describe('POST /auth/users/by-user-ids', () => {
  it('returns the users in the order asked', async () => {
    const wanted = [ids[7]!, ids[0]!, ids[3]!];
    const list = (await expectStatus(await byIds({ userIds: wanted }), 200)) as unknown as UserList;
    expect(list.userCount).toBe(3);
    expect(idsOf(list)).toEqual(wanted);
    expect(list.users[1]).not.toHaveProperty('avatar');
  });

  it('leaves unknown ids out and answers a repeated id once', async () => {
    const list = (await expectStatus(
      await byIds({ userIds: ['nope', ids[2]!, ids[2]!, ids[1]!] }),
      200,
    )) as unknown as UserList;
    expect(list.userCount).toBe(2);
    expect(idsOf(list)).toEqual([ids[2], ids[1]]);
  });

  it('answers an empty list to an empty array', async () => {
    expect(await expectStatus(await byIds({ userIds: [] }), 200)).toEqual({ userCount: 0, users: [] });
  });

  it('accepts 100 ids and refuses 101 (400)', async () => {
    await expectStatus(await byIds({ userIds: Array.from({ length: 100 }, (_, i) => `id${i}`) }), 200);
    await expectStatus(
      await byIds({ userIds: Array.from({ length: 101 }, (_, i) => `id${i}`) }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });

  it.each([
    ['no userIds', {}],
    ['a string for userIds', { userIds: 'abc' }],
    ['a number among the ids', { userIds: ['a', 1] }],
    ['an unknown key', { userIds: [], page: 0 }],
  ])('answers 400 to %s', async (_, body) => {
    await expectStatus(await byIds(body), 400, ErrorCode.VALIDATION_FAILED);
  });
});

// The master-only operations, each as [name, call with these headers].
const masterOnly: [string, (headers: Record<string, string>) => Promise<Response>][] = [
  ['list', (headers) => usersCall(server, '/auth/users', headers)],
  ['search', (headers) => usersCall(server, '/auth/users/search?word=a', headers)],
  ['by-ids', (headers) => byIds({ userIds: [] }, headers)],
];

describe.each(masterOnly)('%s', (_, call) => {
  it('answers 403 to a user token', async () => {
    await expectStatus(await call(ann.auth), 403, ErrorCode.OPERATION_FORBIDDEN);
  });

  it('answers 401 without a valid token', async () => {
    await expectStatus(await call({}), 401, ErrorCode.INVALID_TOKEN);
  });

  it('answers 417 to a wrong authentication id', async () => {
    await expectStatus(
      await call({ ...master, 'X-Service-Authentication-Id': 'wrong' }),
      417,
      ErrorCode.UNKNOWN_PROJECT,
    );
  });
});
