// The user searches read an index of the users' fields (their pieces of three characters): they must answer what a
// read of every user answers, after every kind of change the index has to follow. A seeded sequence of changes, each
// a request through the transport — registrations, guests and their completion, updates of every searched field,
// deletions, imports of a changed export, named snapshots and their restore, resets — and after each, searches of
// the service (`/auth/users/search`) and of the admin API (`/__admin/users`) for words taken from the users (any
// length, any case, accents kept or dropped), with paging, compared with the users of the export read whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredUser } from '../../src/areas/users/state.js';
import { foldText } from '../../src/shared/util/text-search.js';
import { seeded } from '../support/seeded.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';
import { expectStatus, registerRequest, usersCall, type Json } from './helpers.js';

/** The fields of a user the searches read, as the export holds them. */
type User = Pick<
  StoredUser,
  'userId' | 'username' | 'firstName' | 'lastName' | 'email' | 'phoneNumber' | 'active' | 'guest'
>;

interface UserList {
  userCount: number;
  users: { userId: string }[];
}

const NAMES = ['Ann', 'García', 'GARCIA', 'Müller', 'muller', 'Øster', 'Straße', 'Zoë', 'İlker', 'ΣΟΦΊΑ', 'Al', 'B'];
const MORE = ['', 'Émile', 'née', 'ǅemal', '李小龙', 'Smile 😀', 'Łukasz', 'Ðóra', 'o', 'Jean-Luc'];
const DOMAINS = ['example.com', 'mail.example', 'uni.example.org'];
/** Words no user is made of, or made only by folding. */
const FIXED = ['zz', 'ss', 'garcia', 'GARCÍA', 'ß', 'example', '@', '.', 'σοφια', 'i̇', '😀', 'a', 'qqq'];

const random = seeded(28);
let server: TestServer;
let master: Record<string, string>;
let made = 0;
/** The guests made, with the password their sign-up answered. */
const guests = new Map<string, string>();

beforeAll(async () => {
  server = await startTestServer({ emailConfirmation: false });
  master = await masterAuth(server);
});
afterAll(() => server.close());

const name = () => random.pick(random.next() < 0.7 ? NAMES : MORE);
const uniqueName = () => `${random.pick([...NAMES, 'user', 'x']).replace(/[^\p{L}]/gu, '') || 'u'}${made++}`;
const email = () =>
  random.next() < 0.2 ? '' : `${random.pick(['ann', 'bo', 'z', 'mail'])}${made++}@${random.pick(DOMAINS)}`;
const phone = () => (random.next() < 0.5 ? '' : `+39 06 ${random.int(1e6)}`);

async function users(): Promise<User[]> {
  const state = await expectStatus(await server.admin('/__admin/state'), 200);
  return (state['areas'] as { users: { users: User[] } }).users.users;
}

const admin = async (method: string, path: string, status: number, body?: unknown) =>
  expectStatus(await server.admin(path, { method, ...(body !== undefined && { body: JSON.stringify(body) }) }), status);

/** One change, chosen at random, through the transport; what it did, for a failure's message. */
async function change(all: User[]): Promise<string> {
  const roll = random.next();
  const someone = all.length > 0 ? random.pick(all) : undefined;
  if (roll < 0.3 || !someone) {
    const profile = {
      username: uniqueName(),
      firstName: name(),
      lastName: name(),
      email: email(),
      phoneNumber: phone(),
    };
    await expectStatus(await registerRequest(server, { ...profile, password: 'pw' }), 200);
    return `register ${JSON.stringify(profile)}`;
  }
  if (roll < 0.37) {
    const guest = await expectStatus(await usersCall(server, '/auth/guest-users', {}, { method: 'POST' }), 201);
    guests.set(guest['userId'] as string, guest['password'] as string);
    return 'guest';
  }
  // A restore or an import may have taken a guest away, or brought back one completed since.
  const waiting = all.filter((u) => u.guest && guests.has(u.userId));
  if (roll < 0.42 && waiting.length > 0) {
    const { userId } = random.pick(waiting);
    const lastPassword = guests.get(userId)!;
    const body = {
      userId,
      newUsername: uniqueName(),
      lastPassword,
      newPassword: 'pw',
      firstName: name(),
      email: email(),
    };
    await expectStatus(
      await usersCall(server, '/auth/guest-users/complete-registration-master', master, { method: 'POST', body }),
      200,
    );
    return `complete ${JSON.stringify(body)}`;
  }
  if (roll < 0.7) {
    const fields: Json = {};
    if (random.next() < 0.4) fields['username'] = uniqueName();
    if (random.next() < 0.5) fields['email'] = email();
    if (random.next() < 0.5) fields['firstName'] = name();
    if (random.next() < 0.4) fields['lastName'] = name();
    if (random.next() < 0.3) fields['phoneNumber'] = phone();
    await expectStatus(
      await usersCall(server, `/auth/users/${someone.userId}`, master, { method: 'PUT', body: fields }),
      200,
    );
    return `update ${someone.username} with ${JSON.stringify(fields)}`;
  }
  if (roll < 0.8) {
    await expectStatus(await usersCall(server, `/auth/users/${someone.userId}`, master, { method: 'DELETE' }), 200);
    return `delete ${someone.username}`;
  }
  if (roll < 0.87) {
    // An export changed before it is imported: the index must be the import's, not the one kept before.
    const state = await admin('GET', '/__admin/state', 200);
    const imported = (state['areas'] as { users: { users: User[] } }).users.users;
    const renamed = imported[random.int(imported.length)]!;
    renamed.firstName = name();
    renamed.email = email();
    await admin('PUT', '/__admin/state', 200, state);
    return `import with ${renamed.username} renamed ${renamed.firstName}`;
  }
  if (roll < 0.93) {
    await admin('PUT', '/__admin/snapshots/search', 201);
    return 'snapshot';
  }
  if (roll < 0.98) {
    const res = await server.admin('/__admin/snapshots/search/restore', { method: 'POST' });
    expect([200, 404]).toContain(res.status);
    return 'restore';
  }
  await server.reset();
  master = await masterAuth(server);
  return 'reset';
}

/** A word from a user: a few characters of one of their fields, in some case, accents kept or folded. */
function wordOf(all: User[]): string {
  if (all.length === 0 || random.next() < 0.2) return random.pick(FIXED);
  const user = random.pick(all);
  const field = [...user[random.pick(['username', 'firstName', 'lastName', 'email', 'phoneNumber'] as const)]];
  const length = 1 + random.int(5);
  const start = random.int(Math.max(field.length - length, 0) + 1);
  const word = field.slice(start, start + length).join('') || random.pick(FIXED);
  return random.pick([(w: string) => w, (w: string) => w.toUpperCase(), (w: string) => w.toLowerCase(), foldText])(
    word,
  );
}

/** The service's search read over every user, as it always was: the four fields, lower-cased. */
const serviceMatches = (word: string) => (u: User) =>
  [u.firstName, u.lastName, u.username, u.email].some((value) => value.toLowerCase().includes(word.toLowerCase()));

/** The admin API's search read over every user: the id whole, or the five fields folded; the flags as given. */
const adminMatches = (q: string, flags: Partial<Record<'active' | 'guest', boolean>>) => (u: User) => {
  const text = q.trim();
  const found =
    text === '' ||
    u.userId === text ||
    [u.username, u.firstName, u.lastName, u.email, u.phoneNumber].some((v) => foldText(v).includes(foldText(text)));
  return found && (flags.active ?? u.active) === u.active && (flags.guest ?? u.guest) === u.guest;
};

/** What a page of a search must be: the matches in registration order, `userCount` counting them all. */
function expected(all: User[], keeps: (u: User) => boolean, page: number, pageSize: number) {
  const matches = all.filter(keeps).map((u) => u.userId);
  return { userCount: matches.length, ids: matches.slice(page * pageSize, (page + 1) * pageSize) };
}

const answered = (list: UserList) => ({ userCount: list.userCount, ids: list.users.map((u) => u.userId) });

describe('user searches through their index', () => {
  it('answer what a read of every user answers, after each of 150 changes of every kind', async () => {
    for (let step = 0; step < 150; step++) {
      const what = await change(await users());
      const all = await users();
      for (let probe = 0; probe < 3; probe++) {
        const word = wordOf(all);
        const [page, pageSize] = [random.int(3), 1 + random.int(6)];
        const paging = `page=${page}&pageSize=${pageSize}`;
        const search = `/auth/users/search?word=${encodeURIComponent(word)}&${paging}`;
        const found = answered((await expectStatus(await usersCall(server, search, master), 200)) as never);
        expect(found, `step ${step} (${what}): ${search}`).toEqual(expected(all, serviceMatches(word), page, pageSize));

        const q = random.next() < 0.1 && all.length > 0 ? random.pick(all).userId : wordOf(all);
        const flags = random.pick([{}, {}, { active: true }, { guest: false }, { guest: true }]);
        const flagQuery = Object.entries(flags).map(([key, value]) => `&${key}=${value}`);
        const adminSearch = `/__admin/users?q=${encodeURIComponent(q)}&${paging}${flagQuery.join('')}`;
        const adminFound = answered((await expectStatus(await server.admin(adminSearch), 200)) as never);
        expect(adminFound, `step ${step} (${what}): ${adminSearch}`).toEqual(
          expected(all, adminMatches(q, flags), page, pageSize),
        );
      }
    }
  });
});
