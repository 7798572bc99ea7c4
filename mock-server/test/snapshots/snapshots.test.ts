import type { SnapshotInfo } from '@basekit/engine';
// Named snapshots over real HTTP: save a project whole, restore it exactly, in memory and with --data-dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { storageClient, storageHeaders } from '../files/support.js';
import { createProject } from '../../../packages/engine/test/projects/support.js';
import { testServer } from '../../../packages/engine/test/support/server.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, masterAuth, type TestUser } from '../support/users.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ emailConfirmation: false });
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  await server.admin('/__admin/snapshots').then(async (res) => {
    const { snapshots } = (await res.json()) as { snapshots: { name: string }[] };
    for (const { name } of snapshots) await server.admin(`/__admin/snapshots/${name}`, { method: 'DELETE' });
  });
});

const json = { 'Content-Type': 'application/json' };

/** The JSON of an answer of that status (undefined for an empty body), typed as the caller says. */
async function ok<T = Record<string, unknown>>(response: Promise<Response>, status = 200): Promise<T> {
  const res = await response;
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

const exported = async (target: TestServer = server) => ok(target.admin('/__admin/state'));
const config = async (target: TestServer = server) => ok(target.admin('/__admin/config'));
const save = (name: string, target: TestServer = server) =>
  ok(target.admin(`/__admin/snapshots/${name}`, { method: 'PUT' }), 201);
const restore = (name: string, target: TestServer = server) =>
  ok(target.admin(`/__admin/snapshots/${name}/restore`, { method: 'POST' }));

/** A row as the database answers it. */
type Row = Record<string, unknown> & { _id: string };

function dbClient(user: TestUser) {
  const headers = { 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...user.auth, ...json };
  return {
    create: (table: string, body: unknown) =>
      ok<Row>(
        server.request(`/object-storage/classes/${table}`, { method: 'POST', headers, body: JSON.stringify(body) }),
        201,
      ),
    update: (table: string, id: string, body: unknown) =>
      ok<Row>(
        server.request(`/object-storage/classes/${table}/${id}`, {
          method: 'PUT',
          headers,
          body: JSON.stringify(body),
        }),
      ),
    remove: (table: string, id: string) =>
      ok(server.request(`/object-storage/classes/${table}/${id}`, { method: 'DELETE', headers })),
    get: (table: string, id: string) => server.request(`/object-storage/classes/${table}/${id}`, { headers }),
    query: (table: string, where: unknown, params = '') =>
      ok<{ results: Row[] }>(
        server.request(`/object-storage/classes/query/${table}${params}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(where),
        }),
      ),
  };
}

/** Something of every kind of state: users and sessions, rows with relations, files, scores, settings, mail, clock, config. */
async function fill() {
  const ann = await createUser(server, 'ann', { email: 'ann@example.com' });
  const bob = await createUser(server, 'bob');
  const db = dbClient(ann);
  const team = await db.create('Team', { name: 'red' });
  const rows: Row[] = [];
  for (let i = 0; i < 5; i++)
    rows.push(
      await db.create('Player', {
        name: `p${i}`,
        score: i * 10,
        tags: ['a'],
        team: { __type: 'Pointer', className: 'Team', _id: team._id },
      }),
    );
  await db.update('Team', team._id, {
    members: { __op: 'AddRelation', objects: [{ __type: 'Pointer', className: 'Player', _id: rows[0]!._id }] },
  });
  for (const line of ['one', 'two']) await db.create('Log', { line });
  // A query builds the index of `score` before the snapshot: the restored project must keep it right.
  await db.query('Player', { score: { $gt: 5 } }, '?order=-score');
  const files = storageClient(server, ann.auth);
  expect((await files.upload([{ name: 'a.txt', content: 'hello', path: '/docs' }])).status).toBe(200);
  await ok(
    server.request('/game/events', {
      method: 'POST',
      headers: { 'X-Service-Game-Id': server.config.gameId, ...ann.auth, ...json },
      body: JSON.stringify({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 42 }] }),
    }),
  );
  await ok(
    server.request('/metadata/webhook', {
      method: 'POST',
      headers: { ...masterAuthHeaders(), ...json },
      body: JSON.stringify({ name: 'hook', url: 'http://127.0.0.1:9/hook', default: true }),
    }),
    201,
  );
  await ok(server.admin('/__admin/clock', { method: 'POST', headers: json, body: '{"advanceSeconds":60}' }));
  await server.patchConfig({ maxRowBytes: 65536 });
  return { ann, bob, db, team, rows, files };
}

let masterToken: Record<string, string> = {};
const masterAuthHeaders = () => masterToken;

beforeEach(async () => {
  masterToken = await masterAuth(server);
});

/** Changes of every kind after the snapshot. */
async function change({ ann, bob, db, team, rows, files }: Awaited<ReturnType<typeof fill>>) {
  await db.update('Player', rows[1]!._id, {
    score: { __op: 'Increment', amount: 1000 },
    tags: { __op: 'Add', objects: ['b'] },
  });
  await db.remove('Player', rows[2]!._id);
  await db.create('Player', { name: 'new', score: 7 });
  await db.update('Team', team._id, {
    members: { __op: 'AddRelation', objects: [{ __type: 'Pointer', className: 'Player', _id: rows[3]!._id }] },
  });
  await ok(files.post('/files/delete', { urls: ['/docs/a.txt'], forced: [false] }));
  await files.upload([{ name: 'b.txt', content: 'other', path: '/docs' }]);
  await ok(
    server.request('/auth/users/me', {
      method: 'PUT',
      headers: { ...authIdHeader(server), ...ann.auth, ...json },
      body: JSON.stringify({ firstName: 'Changed' }),
    }),
  );
  await createUser(server, 'carl');
  await ok(server.admin(`/__admin/users/${bob.userId}/sign-out`, { method: 'POST' }));
  await ok(
    server.request('/object-storage/classes/Log', {
      method: 'DELETE',
      headers: { 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...masterAuthHeaders() },
    }),
  );
  await ok(server.admin('/__admin/clock', { method: 'POST', headers: json, body: '{"advanceSeconds":3600}' }));
  await server.patchConfig({ maxRowBytes: 1024 });
}

describe('named snapshots', () => {
  it('bring the project back exactly: the export and the config equal those at save time, again and again', async () => {
    const filled = await fill();
    const before = await exported();
    const configBefore = await config();
    const saved = await save('seeded');
    expect(saved).toMatchObject({ name: 'seeded', createdAt: expect.any(String), restores: 0 });

    await change(filled);
    expect(await exported()).not.toEqual(before);
    await restore('seeded');
    expect(await exported()).toEqual(before);
    expect(await config()).toEqual(configBefore);

    // What a test does after a restore never reaches the snapshot: a second round comes back the same.
    await change(filled);
    await restore('seeded');
    expect(await exported()).toEqual(before);
    expect((await ok<{ snapshots: SnapshotInfo[] }>(server.admin('/__admin/snapshots'))).snapshots).toMatchObject([
      { name: 'seeded', restores: 2 },
    ]);
  });

  it('leave a working project: rows, queries served by indexes, relations, files, sessions', async () => {
    const filled = await fill();
    const { db, rows, ann } = filled;
    await save('seeded');
    await change(filled);
    await restore('seeded');
    expect(await (await db.get('Player', rows[2]!._id)).json()).toMatchObject({ name: 'p2', score: 20 });
    const { results } = await db.query('Player', { score: { $gt: 5 } }, '?order=-score');
    expect(results.map((r) => r['name'])).toEqual(['p4', 'p3', 'p2', 'p1']);
    // Writes after the restore keep the index right, and leave the snapshot alone.
    await db.update('Player', rows[4]!._id, { score: 1 });
    const after = await db.query('Player', { score: { $gt: 5 } }, '?order=-score');
    expect(after.results.map((r) => r['name'])).toEqual(['p3', 'p2', 'p1']);
    await restore('seeded');
    const again = await db.query('Player', { score: { $gt: 5 } }, '?order=-score');
    expect(again.results.map((r) => r['name'])).toEqual(['p4', 'p3', 'p2', 'p1']);
    const team = await ok<Row>(db.get('Team', filled.team._id));
    expect(team['members']).toEqual([{ __type: 'Pointer', className: 'Player', _id: rows[0]!._id }]);
    const download = await server.request(`/${server.config.storageId}/docs/a.txt`, {
      headers: storageHeaders(server, ann.auth),
    });
    expect(await download.text()).toBe('hello');
    expect((await server.request('/auth/users/me', { headers: { ...authIdHeader(server), ...ann.auth } })).status).toBe(
      200,
    );
  });

  it('are left alone by the table tools: a column renamed or dropped, rows imported, a table deleted', async () => {
    const { db, rows } = await fill();
    await save('seeded');
    const before = await exported();
    const table = (path: string, init: RequestInit = {}) =>
      ok(server.admin(`/__admin/database/tables/Player${path}`, { headers: json, ...init }));
    await table('/columns/score', { method: 'PATCH', body: JSON.stringify({ name: 'points' }) });
    await table('/columns/name', { method: 'DELETE' });
    await ok(
      server.admin('/__admin/database/tables/Player/import', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ rows: [{ points: 99 }] }),
      }),
    );
    expect(await ok<Row>(db.get('Player', rows[2]!._id))).not.toHaveProperty('name');
    await restore('seeded');
    expect(await exported()).toEqual(before);
    expect(await ok<Row>(db.get('Player', rows[2]!._id))).toMatchObject({ name: 'p2', score: 20 });
    await table('', { method: 'DELETE' });
    await restore('seeded');
    expect(await exported()).toEqual(before);
  });

  it('are listed, replaced under the same name, deleted; an unknown name is 404 with code 43', async () => {
    await save('a');
    await createUser(server, 'ann');
    await save('b');
    await save('a');
    const { snapshots } = await ok<{ snapshots: SnapshotInfo[] }>(server.admin('/__admin/snapshots'));
    expect(snapshots.map((s) => s.name)).toEqual(['a', 'b']);
    expect((await server.admin('/__admin/snapshots/b', { method: 'DELETE' })).status).toBe(204);
    for (const res of [
      await server.admin('/__admin/snapshots/b/restore', { method: 'POST' }),
      await server.admin('/__admin/snapshots/b', { method: 'DELETE' }),
    ]) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: number }).code).toBe(43);
    }
  });

  it('survive a reset, are per project, refuse bad names and more than maxSnapshots (400, code 44)', async () => {
    await createUser(server, 'ann');
    const before = await exported();
    await save('one');
    await server.reset();
    await restore('one');
    expect(await exported()).toEqual(before);

    const other = await createProject(server);
    expect((await ok(other.admin('/__admin/snapshots'))).snapshots).toEqual([]);
    expect((await other.admin('/__admin/snapshots/one/restore', { method: 'POST' })).status).toBe(404);

    const bad = await server.admin('/__admin/snapshots/no%20spaces', { method: 'PUT' });
    expect(bad.status).toBe(400);
    await server.patchConfig({ maxSnapshots: 1 });
    const tooMany = await server.admin('/__admin/snapshots/two', { method: 'PUT' });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { code: number }).code).toBe(44);
    await save('one');
    expect((await server.request('/__admin/snapshots')).status).toBe(403);
  });
});

describe('named snapshots with --data-dir', () => {
  it('restore durably (a crash right after keeps the restored state) and keep the bytes of files they list', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'basekit-snapshots-'));
    const servers: Awaited<ReturnType<typeof startServer>>[] = [];
    try {
      const first = await startServer({ port: 0, dataDir: dir });
      servers.push(first);
      const target: TestServer = {
        ...first,
        ...testServer({
          url: first.url,
          config: { ...server.config, masterKey: 'dev-master-key' },
          engine: first.engine,
          fetch: (input, init) => fetch(input, init),
          close: () => first.close(),
        }),
      };
      const ann = await createUser(target, 'ann');
      const files = storageClient(target, ann.auth);
      expect((await files.upload([{ name: 'a.txt', content: 'kept bytes', path: '/docs' }])).status).toBe(200);
      const before = await exported(target);
      await save('seeded', target);
      await ok(files.post('/files/delete', { urls: ['/docs/a.txt'], forced: [false] }));
      await createUser(target, 'bob');
      await restore('seeded', target);
      expect(await exported(target)).toEqual(before);
      const download = await target.request('/dev-storage/docs/a.txt', {
        headers: storageHeaders(target, ann.auth),
      });
      expect(await download.text()).toBe('kept bytes');

      // A second server on the same folder, the first never stopped: it finds the restored state.
      const second = await startServer({ port: 0, dataDir: dir });
      servers.push(second);
      const again = await (
        await fetch(`${second.url}/__admin/state`, { headers: { 'X-Service-Authentication-Key': 'dev-master-key' } })
      ).json();
      expect(again).toEqual(before);
      const kept = await fetch(`${second.url}/dev-storage/docs/a.txt`, { headers: storageHeaders(target, ann.auth) });
      expect(await kept.text()).toBe('kept bytes');
    } finally {
      await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
