import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth } from '../support/users.js';
import { database, date, pointer, type Database } from './support.js';

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer();
  db = database(server, (await createUser(server, 'tables-ann')).auth);
});
afterAll(() => server.close());

const tables = async () => {
  const res = await server.admin('/__admin/database/tables');
  expect(res.status).toBe(200);
  return ((await res.json()) as { tables: unknown[] }).tables;
};

it('lists every table by name with its row count and its column types in the order first written', async () => {
  expect(await tables()).toEqual([]);
  const { body: author } = await db.create('Author', { name: 'Ann' });
  await db.create('Note', {
    title: 'a',
    views: 1,
    done: true,
    due: date('2024-01-02T03:04:05.678Z'),
    meta: {},
    tags: [],
    author: pointer('Author', author._id),
  });
  await db.create('Note', { title: 'b', likes: { __op: 'AddRelation', objects: [pointer('Author', author._id)] } });
  expect(await tables()).toEqual([
    { name: 'Author', rowCount: 1, columns: [{ name: 'name', type: 'String' }] },
    {
      name: 'Note',
      rowCount: 2,
      columns: [
        { name: 'title', type: 'String' },
        { name: 'views', type: 'Number' },
        { name: 'done', type: 'Boolean' },
        { name: 'due', type: 'Date' },
        { name: 'meta', type: 'Object' },
        { name: 'tags', type: 'Array' },
        { name: 'author', type: 'Pointer', targetClass: 'Author' },
        { name: 'likes', type: 'Relation', targetClass: 'Author' },
      ],
    },
  ]);
});

it('keeps a table emptied by delete-all, with its columns, and follows deletes', async () => {
  const { body } = await db.create('Gone', { n: 1 });
  await db.remove('Gone', body._id);
  expect(await tables()).toContainEqual({ name: 'Gone', rowCount: 0, columns: [{ name: 'n', type: 'Number' }] });
  await db.create('Gone', { n: 2 });
  await database(server, await masterAuth(server)).removeAll('Gone');
  expect(await tables()).toContainEqual({ name: 'Gone', rowCount: 0, columns: [{ name: 'n', type: 'Number' }] });
});

it('needs the master key (403 with a wrong one, nothing listed)', async () => {
  const res = await server.request('/__admin/database/tables', {
    headers: { 'X-Service-Authentication-Key': server.config.clientKey },
  });
  expect(res.status).toBe(403);
  expect(await res.json()).toMatchObject({ code: expect.any(Number), error: expect.any(String) });
});
