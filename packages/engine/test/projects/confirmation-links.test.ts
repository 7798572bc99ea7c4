// A confirmation link names no project: the server finds the project holding it in one lookup (its registry keeps
// the projects holding each link, told by them of every link taken in and let go). Each change that gives or takes
// links — registration, deletion, an import (one export in two projects, an export of 1,500 links), a named
// snapshot's restore, a reset, a project's removal — and the link must lead where a question to every project would,
// and the registry hold exactly the links some project holds (`registry.links`), never more.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createProject, serverAdmin } from './support.js';

let server: TestServer;
let a: TestServer;
let b: TestServer;
let c: TestServer;

const json = { 'Content-Type': 'application/json' };

beforeAll(async () => {
  server = await startTestServer();
  [a, b, c] = [
    await createProject(server, { emailConfirmation: true }),
    await createProject(server, { emailConfirmation: true }),
    await createProject(server, { emailConfirmation: true }),
  ];
});
afterAll(() => server.close());

/** Registers `username` in `project` (inactive until confirmed); its id and the path of its confirmation link. */
async function register(project: TestServer, username: string): Promise<{ userId: string; link: string }> {
  const res = await project.request('/auth/users', {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': project.config.authenticationId, ...json },
    body: JSON.stringify({ username, password: 'pw', email: `${username}@example.com` }),
  });
  const { userId } = (await res.json()) as { userId: string };
  const { messages } = (await (await project.admin('/__admin/outbox')).json()) as { messages: { link: string }[] };
  return { userId, link: new URL(messages.at(-1)!.link).pathname };
}

/** Opens a link with no header, as a mail client does: the status and the user it activated, if any. */
async function open(link: string): Promise<{ status: number; userId?: string }> {
  const res = await server.request(link);
  const body = (await res.json()) as { userId?: string };
  return { status: res.status, ...(res.status === 200 && { userId: body.userId }) };
}

const admin = (project: TestServer, method: string, path: string, body?: unknown) =>
  project.admin(path, { method, headers: json, ...(body !== undefined && { body: JSON.stringify(body) }) });

const hexToken = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('');

describe('confirmation links across projects', () => {
  it('lead to the project holding them through registrations, deletions and imports into two projects', async () => {
    const ann = await register(a, 'ann');
    const bob = await register(b, 'bob');
    expect(await open(ann.link)).toEqual({ status: 200, userId: ann.userId });
    expect(await open(bob.link)).toEqual({ status: 200, userId: bob.userId });

    // b's export imported into c: both hold bob's link, and either answers for him.
    const exported = await (await b.admin('/__admin/state')).json();
    expect((await admin(c, 'PUT', '/__admin/state', exported)).status).toBe(200);
    expect(await open(bob.link)).toEqual({ status: 200, userId: bob.userId });
    // c lets bob go: b still holds his link.
    expect(
      (await c.request(`/auth/users/${bob.userId}`, { method: 'DELETE', headers: await masterOf(c) })).status,
    ).toBe(200);
    expect(await open(bob.link)).toEqual({ status: 200, userId: bob.userId });
    expect(
      (await b.request(`/auth/users/${bob.userId}`, { method: 'DELETE', headers: await masterOf(b) })).status,
    ).toBe(200);
    expect((await open(bob.link)).status).toBe(404);
  });

  it('follow a named snapshot restored, a reset and a removed project', async () => {
    const dan = await register(a, 'dan');
    expect((await admin(a, 'PUT', '/__admin/snapshots/before')).status).toBe(201);
    const eve = await register(a, 'eve');
    expect(await open(eve.link)).toEqual({ status: 200, userId: eve.userId });
    expect((await admin(a, 'POST', '/__admin/snapshots/before/restore')).status).toBe(200);
    expect((await open(eve.link)).status).toBe(404);
    expect(await open(dan.link)).toEqual({ status: 200, userId: dan.userId });
    await a.reset();
    expect((await open(dan.link)).status).toBe(404);

    const fay = await register(c, 'fay');
    expect(await open(fay.link)).toEqual({ status: 200, userId: fay.userId });
    const removed = await server.request(`/__admin/projects/${c.config.authenticationId}`, {
      method: 'DELETE',
      headers: serverAdmin(server),
    });
    expect(removed.status).toBe(204);
    expect((await open(fay.link)).status).toBe(404);
  });

  it('lead to their project after an import of 1,500 links', async () => {
    const kept = await register(b, 'kept');
    const users = Array.from({ length: 1500 }, (_, i) => importedUser(`imported${i}`));
    const confirmations = users.map(({ userId }) => [hexToken(), userId] as const);
    const state = { areas: { users: { users, confirmations } } };
    expect((await admin(a, 'PUT', '/__admin/state', state)).status).toBe(200);
    for (const at of [0, 700, 1024, 1499]) {
      const [token, userId] = confirmations[at]!;
      expect(await open(`/auth/confirm/${token}`)).toEqual({ status: 200, userId });
    }
    expect(await open(kept.link)).toEqual({ status: 200, userId: kept.userId });
    expect((await open(`/auth/confirm/${hexToken()}`)).status).toBe(404);
  });
});

/** How many links the server's registry holds. */
const kept = () => server.engine.projects.registry.links;

/** Deletes `userId` from `project` (master only). */
async function deleteUser(project: TestServer, userId: string): Promise<void> {
  const res = await project.request(`/auth/users/${userId}`, { method: 'DELETE', headers: await masterOf(project) });
  expect(res.status).toBe(200);
}

describe('the registry of confirmation links', () => {
  it('lets go of a link whose user is deleted, and keeps a confirmed one (opened again, it answers the same)', async () => {
    const project = await createProject(server, { emailConfirmation: true });
    const before = kept();
    const gus = await register(project, 'gus');
    const hal = await register(project, 'hal');
    expect(kept()).toBe(before + 2);
    expect(await open(gus.link)).toEqual({ status: 200, userId: gus.userId });
    expect(await open(gus.link)).toEqual({ status: 200, userId: gus.userId });
    expect(kept()).toBe(before + 2);
    await deleteUser(project, gus.userId);
    expect(kept()).toBe(before + 1);
    expect((await open(gus.link)).status).toBe(404);
    expect(await open(hal.link)).toEqual({ status: 200, userId: hal.userId });
  });

  it('does not grow with links made and let go', async () => {
    const project = await createProject(server, { emailConfirmation: true });
    const before = kept();
    for (let i = 0; i < 300; i++) await deleteUser(project, (await register(project, `passing${i}`)).userId);
    expect(kept()).toBe(before);
  });

  it('follows a state replaced: an import, a failed import, a snapshot restored, a reset', async () => {
    const project = await createProject(server, { emailConfirmation: true });
    const before = kept();
    const ivy = await register(project, 'ivy');
    const token = hexToken();
    const state = {
      areas: { users: { users: [{ ...importedUser('jo'), active: false }], confirmations: [[token, 'jo']] } },
    };
    expect((await admin(project, 'PUT', '/__admin/state', state)).status).toBe(200);
    expect(kept()).toBe(before + 1);
    expect((await open(ivy.link)).status).toBe(404);
    expect(await open(`/auth/confirm/${token}`)).toEqual({ status: 200, userId: 'jo' });

    // Its users imported, then refused for its leaderboards: the state and its links are as they were.
    const other = { areas: { ...state.areas, users: { ...state.areas.users, confirmations: [[hexToken(), 'jo']] } } };
    const refused = await admin(project, 'PUT', '/__admin/state', { areas: { ...other.areas, leaderboards: 5 } });
    expect(refused.status).toBe(400);
    expect(kept()).toBe(before + 1);
    expect(await open(`/auth/confirm/${token}`)).toEqual({ status: 200, userId: 'jo' });

    expect((await admin(project, 'PUT', '/__admin/snapshots/imported')).status).toBe(201);
    const lou = await register(project, 'lou');
    expect(kept()).toBe(before + 2);
    expect((await admin(project, 'POST', '/__admin/snapshots/imported/restore')).status).toBe(200);
    expect(kept()).toBe(before + 1);
    expect((await open(lou.link)).status).toBe(404);

    await project.reset();
    expect(kept()).toBe(before);
    expect((await open(`/auth/confirm/${token}`)).status).toBe(404);
  });

  it("lets go of a removed project's links", async () => {
    const project = await createProject(server, { emailConfirmation: true });
    const before = kept();
    const mia = await register(project, 'mia');
    await register(project, 'ned');
    expect(kept()).toBe(before + 2);
    const removed = await server.request(`/__admin/projects/${project.config.authenticationId}`, {
      method: 'DELETE',
      headers: serverAdmin(server),
    });
    expect(removed.status).toBe(204);
    expect(kept()).toBe(before);
    expect((await open(mia.link)).status).toBe(404);
  });

  it('keeps a link two projects hold while either does, leading to the last to take it in', async () => {
    const [first, second] = [
      await createProject(server, { emailConfirmation: true }),
      await createProject(server, { emailConfirmation: true }),
    ];
    const before = kept();
    const token = hexToken();
    const exported = { areas: { users: { users: [importedUser('kim')], confirmations: [[token, 'kim']] } } };
    expect((await admin(first, 'PUT', '/__admin/state', exported)).status).toBe(200);
    // The second's own kim, under the same id: which project answers shows in the user's name.
    const theirs = { ...exported.areas.users, users: [{ ...importedUser('kim'), username: 'kim-of-second' }] };
    expect((await admin(second, 'PUT', '/__admin/state', { areas: { users: theirs } })).status).toBe(200);
    expect(kept()).toBe(before + 1);
    expect(await openedBy(token)).toBe('kim-of-second');
    await deleteUser(second, 'kim');
    expect(await openedBy(token)).toBe('kim');
    expect(kept()).toBe(before + 1);
    await deleteUser(first, 'kim');
    expect(kept()).toBe(before);
    expect((await open(`/auth/confirm/${token}`)).status).toBe(404);
  });
});

/** A user as an export holds it, inactive, with the id `userId`. */
function importedUser(userId: string) {
  return {
    userId,
    username: userId,
    firstName: '',
    lastName: '',
    email: `${userId}@example.com`,
    phoneNumber: '',
    avatar: '',
    guest: false,
    active: false,
    extra: {},
    passwordHash: 'x',
    createdAt: 0,
  };
}

/** The user name of the user a link activated (which project answered). */
async function openedBy(token: string): Promise<string> {
  const res = await server.request(`/auth/confirm/${token}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { username: string }).username;
}

/** A master token of `project`'s, as the `Authorization` header. */
async function masterOf(project: TestServer): Promise<Record<string, string>> {
  const res = await project.request('/auth/login', {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': project.config.authenticationId,
      'X-Service-Authentication-Key': project.config.masterKey,
    },
  });
  const { access_token: token } = (await res.json()) as { access_token: string };
  return { Authorization: `Bearer ${token}`, 'X-Service-Authentication-Id': project.config.authenticationId };
}
