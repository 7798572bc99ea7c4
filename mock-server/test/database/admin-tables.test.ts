// The database's admin API beyond the table list: a table described with its counts and what points into
// it, rows imported all at once or not at all, a column renamed or dropped, a table deleted; over HTTP, and kept by
// the journal across a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TableSchema, TableSummary } from '@basekit/sdk/admin';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';
import { database, date, pointer, type Database, type Reply } from '../../../packages/engine/test/database/support.js';

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer();
});
beforeEach(async () => {
  await server.reset();
  db = database(server, await masterAuth(server));
});
afterAll(() => server.close());

/** An admin call with a JSON body: the status and the parsed answer. */
async function admin<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
  const res = await server.admin(`/__admin/database${path}`, {
    method,
    ...(body !== undefined && { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Reply<T>['body'] };
}

/** Two authors, three notes pointing to them, one with a relation: the set-up of most tests. */
async function authorsAndNotes() {
  const ann = (await db.create('Author', { name: 'Ann' })).body._id;
  const bob = (await db.create('Author', { name: 'Bob', born: date('1990-01-02T00:00:00.000Z') })).body._id;
  const notes = [];
  for (const [title, author] of [
    ['a', ann],
    ['b', bob],
    ['c', ann],
  ] as const)
    notes.push(
      (await db.create('Note', { title, views: title.charCodeAt(0), author: pointer('Author', author) })).body._id,
    );
  await db.update('Note', notes[0]!, { likes: { __op: 'AddRelation', objects: [pointer('Author', bob)] } });
  return { ann, bob, notes };
}

it('describes a table: each column with the rows holding a value, and the columns of every table pointing into it', async () => {
  await authorsAndNotes();
  expect(await admin('GET', '/tables/Author')).toEqual({
    status: 200,
    body: {
      name: 'Author',
      rowCount: 2,
      columns: [
        { name: 'name', type: 'String', rowsWithValue: 2 },
        { name: 'born', type: 'Date', rowsWithValue: 1 },
      ],
      referencedBy: [
        { table: 'Note', column: 'author', type: 'Pointer', rowsWithValue: 3 },
        { table: 'Note', column: 'likes', type: 'Relation', rowsWithValue: 1 },
      ],
    },
  });
  expect(await admin('GET', '/tables/Nothing')).toMatchObject({ status: 404, body: { code: 50 } });
  expect(await admin('GET', '/tables/bad-name')).toMatchObject({ status: 400, body: { code: 103 } });
});

it('imports rows all at once: ids, timestamps and relations kept, column types from the table, the file and the rows before', async () => {
  const { ann, bob } = await authorsAndNotes();
  const answer = await admin('POST', '/tables/Note/import', {
    rows: [
      { _id: 'kept1', createdAt: '2020-01-01T00:00:00.000Z', title: 'imported', author: pointer('Author', ann) },
      { title: 'with relation', likes: [pointer('Author', ann), pointer('Author', bob)], rating: 4 },
      { rating: 5, ACL: { '*': { read: true } } },
    ],
  });
  expect(answer).toEqual({ status: 200, body: { imported: 3 } });
  const kept = await db.get('Note', 'kept1');
  expect(kept.body).toMatchObject({
    title: 'imported',
    createdAt: '2020-01-01T00:00:00.000Z',
    updatedAt: '2020-01-01T00:00:00.000Z',
  });
  const { body } = await db.query('Note', { title: 'with relation' });
  expect(body.results[0]!.likes).toEqual([pointer('Author', ann), pointer('Author', bob)]);
  const related = await db.query('Author', {
    $relatedTo: { object: pointer('Note', body.results[0]!._id as string), key: 'likes' },
  });
  expect(related.body.results.map((r) => r.name).sort()).toEqual(['Ann', 'Bob']);
  expect((await db.query('Note', { rating: { $gte: 4 } }, 'count=1&limit=0')).body.count).toBe(2);

  // A new table with its schema given: a relation column, created before its first member.
  expect(
    await admin('POST', '/tables/Shelf/import', {
      columns: [{ name: 'books', type: 'Relation', targetClass: 'Note' }],
      rows: [{ books: [pointer('Note', 'kept1')] }, { books: [] }],
    }),
  ).toEqual({ status: 200, body: { imported: 2 } });
  expect((await admin('GET', '/tables/Shelf')).body.columns).toEqual([
    { name: 'books', type: 'Relation', targetClass: 'Note', rowsWithValue: 1 },
  ]);
});

it('refuses an import with a bad row, naming its position and why, and writes nothing', async () => {
  await authorsAndNotes();
  const before = await admin('GET', '/tables/Note');
  const refused = async (rows: unknown[], message: RegExp, extra: Record<string, unknown> = {}) => {
    const answer = await admin('POST', '/tables/Note/import', { ...extra, rows });
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.code).toBe(53);
    expect(answer.body.error).toMatch(message);
  };
  await refused([{ title: 'fine', fresh: 1 }, { title: 'also fine' }, { views: 'many' }], /^row 3: .*views.*Number/);
  await refused([{ fresh: 1 }, { fresh: 'text' }], /^row 2: .*fresh.*Number/);
  await refused([{ _id: 'x1' }, { _id: 'x1' }], /^row 2: "_id" "x1" is taken/);
  await refused([{ _id: 'has space' }], /^row 1: "_id" must be/);
  await refused([{ createdAt: 'yesterday' }], /^row 1: "createdAt" must be a timestamp/);
  await refused([{ views: { __op: 'Increment', amount: 1 } }], /^row 1: .*operator/);
  await refused(['not a row'], /^row 1: a row is a JSON object/);
  await refused([{ likes: 'Bob' }], /^row 1: column "likes" is a relation/);
  await refused([{ big: 'x'.repeat(server.engine.project.config.maxRowBytes) }], /^row 1: a row may be at most/);
  expect(await admin('GET', '/tables/Note')).toEqual(before);

  // The import as a whole: its schema, its shape, its table name.
  expect(
    await admin('POST', '/tables/Note/import', { columns: [{ name: 'views', type: 'String' }], rows: [] }),
  ).toMatchObject({ status: 400, body: { code: 111 } });
  expect(await admin('POST', '/tables/Note/import', { rows: {} })).toMatchObject({ status: 400, body: { code: 142 } });
  expect(
    await admin('POST', '/tables/Note/import', { columns: [{ name: 'p', type: 'Pointer' }], rows: [] }),
  ).toMatchObject({ status: 400, body: { code: 142 } });
  expect(await admin('POST', '/tables/query/import', { rows: [] })).toMatchObject({ status: 400, body: { code: 103 } });
  expect(await admin('GET', '/tables/Note')).toEqual(before);
  expect(await admin('GET', '/tables/Fresh')).toMatchObject({ status: 404 });
});

it('renames a column in every row, its relations and its indexes; refuses a name taken or not allowed', async () => {
  const { bob, notes } = await authorsAndNotes();
  // An index on `views` exists once a query used it.
  expect((await db.query('Note', { views: { $gt: 97 } }, 'order=views')).body.results).toHaveLength(2);
  const renamed = await admin<TableSchema>('PATCH', '/tables/Note/columns/views', { name: 'hits' });
  expect(renamed.status).toBe(200);
  expect(renamed.body.columns.map((c) => c.name)).toEqual(['title', 'hits', 'author', 'likes']);
  const { body } = await db.get('Note', notes[0]!);
  expect(body).toMatchObject({ hits: 97 });
  expect(body).not.toHaveProperty('views');
  expect((await db.query('Note', { hits: { $gt: 97 } }, 'order=-hits')).body.results.map((r) => r.title)).toEqual([
    'c',
    'b',
  ]);
  expect((await db.query('Note', { views: { $gt: 0 } })).body.results).toEqual([]);
  await admin('PATCH', '/tables/Note/columns/likes', { name: 'fans' });
  expect((await db.get('Note', notes[0]!)).body.fans).toEqual([pointer('Author', bob)]);
  // The rows were not changed by anyone: they keep their updatedAt.
  expect((await db.get('Note', notes[1]!)).body.updatedAt).toBe((await db.get('Note', notes[1]!)).body.createdAt);

  expect(await admin('PATCH', '/tables/Note/columns/hits', { name: 'title' })).toMatchObject({
    status: 409,
    body: { code: 52 },
  });
  expect(await admin('PATCH', '/tables/Note/columns/hits', { name: '2x' })).toMatchObject({
    status: 400,
    body: { code: 105 },
  });
  expect(await admin('PATCH', '/tables/Note/columns/hits', { name: 'ACL' })).toMatchObject({
    status: 400,
    body: { code: 105 },
  });
  expect(await admin('PATCH', '/tables/Note/columns/hits', {})).toMatchObject({ status: 400, body: { code: 142 } });
  expect(await admin('PATCH', '/tables/Note/columns/_id', { name: 'id' })).toMatchObject({
    status: 400,
    body: { code: 105 },
  });
  expect(await admin('PATCH', '/tables/Note/columns/nope', { name: 'yes' })).toMatchObject({
    status: 404,
    body: { code: 51 },
  });
  expect(await admin('PATCH', '/tables/Nope/columns/a', { name: 'b' })).toMatchObject({
    status: 404,
    body: { code: 50 },
  });
});

it('drops a column from every row and its type, so the name may take another', async () => {
  const { notes } = await authorsAndNotes();
  const dropped = await admin<TableSchema>('DELETE', '/tables/Note/columns/likes');
  expect(dropped.status).toBe(200);
  expect(dropped.body.columns.map((c) => c.name)).toEqual(['title', 'views', 'author']);
  expect((await db.get('Note', notes[0]!)).body).not.toHaveProperty('likes');
  await admin('DELETE', '/tables/Note/columns/views');
  expect((await db.query('Note', { views: { $exists: true } }, 'count=1')).body.count).toBe(0);
  expect((await db.update('Note', notes[0]!, { views: 'many' })).status).toBe(200);
  expect(await admin('DELETE', '/tables/Note/columns/views')).toMatchObject({ status: 200 });
  expect(await admin('DELETE', '/tables/Note/columns/views')).toMatchObject({ status: 404, body: { code: 51 } });
  expect(await admin('DELETE', '/tables/Note/columns/ACL')).toMatchObject({ status: 400, body: { code: 105 } });
});

it('deletes a table with its rows and columns; pointers into it stay as they were', async () => {
  const { ann, notes } = await authorsAndNotes();
  expect(await admin('DELETE', '/tables/Author')).toEqual({ status: 200, body: { deletedCount: 2 } });
  expect((await admin<{ tables: TableSummary[] }>('GET', '/tables')).body.tables.map((t) => t.name)).toEqual(['Note']);
  expect((await db.get('Note', notes[0]!)).body.author).toEqual(pointer('Author', ann));
  expect((await db.get('Author', ann)).status).toBe(404);
  expect(await admin('DELETE', '/tables/Author')).toMatchObject({ status: 404, body: { code: 50 } });
  // A table of that name starts afresh: its old column types are gone.
  expect((await db.create('Author', { name: 42 })).status).toBe(201);
});

it('keeps imports, renames, drops and deletes across a restart (the journal replays them)', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'basekit-admin-tables-'));
  try {
    const first = await startServer({ port: 0, dataDir });
    const { masterKey } = first.engine.project.config;
    const call = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}/__admin/database${path}`, {
        method,
        headers: { 'X-Service-Authentication-Key': masterKey, 'Content-Type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as Reply['body'] }));
    await call(first.url, 'POST', '/tables/A/import', { rows: [{ x: 1, y: 'a' }, { x: 2 }] });
    await call(first.url, 'POST', '/tables/B/import', { rows: [{ z: true }] });
    await call(first.url, 'PATCH', '/tables/A/columns/x', { name: 'n' });
    await call(first.url, 'DELETE', '/tables/A/columns/y');
    await call(first.url, 'DELETE', '/tables/B');
    const before = await call(first.url, 'GET', '/tables');
    await first.close();
    const second = await startServer({ port: 0, dataDir });
    try {
      expect(await call(second.url, 'GET', '/tables')).toEqual(before);
      expect(before.body.tables).toEqual([{ name: 'A', rowCount: 2, columns: [{ name: 'n', type: 'Number' }] }]);
    } finally {
      await second.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

/**
 * Each column's count as the rows hold it, read back through the service: a key present (null too), a relation with
 * at least one member.
 */
async function countedFromRows(table: string, columns: TableSchema['columns']): Promise<Record<string, number>> {
  const { results } = (await db.query(table, {}, 'limit=1000')).body;
  return Object.fromEntries(
    columns.map(({ name, type }) => [
      name,
      results.filter((row) => name in row && (type !== 'Relation' || (row[name] as unknown[]).length > 0)).length,
    ]),
  );
}

it('keeps the counts of a described table as its rows are written, refused, deleted, imported and restored', async () => {
  const { ann, bob, notes } = await authorsAndNotes();
  const described = async () => {
    const { body } = await admin<TableSchema>('GET', '/tables/Note');
    const counts = Object.fromEntries(body.columns.map((c) => [c.name, c.rowsWithValue]));
    expect(counts).toEqual(await countedFromRows('Note', body.columns));
    return counts;
  };
  const likes = (op: string, ...ids: string[]) => ({ __op: op, objects: ids.map((id) => pointer('Author', id)) });
  // The first description counts the rows; every step after it is checked against the rows themselves.
  expect(await described()).toEqual({ title: 3, views: 3, author: 3, likes: 1 });
  const created = (await db.create('Note', { title: null, rating: 1, likes: likes('AddRelation', ann) })).body._id;
  await db.create('Note', { likes: likes('AddRelation') });
  await described();
  await db.update('Note', notes[0]!, { likes: likes('RemoveRelation', bob), views: { __op: 'Delete' } });
  await db.update('Note', created, { likes: { __op: 'Delete' }, rating: { __op: 'Increment', amount: 1 } });
  await db.update('Note', notes[1]!, { rating: 3, likes: likes('AddRelation', ann, bob) });
  expect(await described()).toMatchObject({ views: 2, rating: 2, likes: 1 });
  // Refused writes change nothing.
  expect((await db.update('Note', notes[2]!, { title: 1, rating: 9 })).status).toBe(400);
  expect((await db.create('Note', { views: 'many', rating: 9 })).status).toBe(400);
  await db.remove('Note', notes[1]!);
  await db.batch([
    { method: 'POST', path: '/object-storage/classes/Note', body: { rating: 7, title: 'x' } },
    { method: 'PUT', path: `/object-storage/classes/Note/${notes[2]}`, body: { author: { __op: 'Delete' } } },
    { method: 'DELETE', path: `/object-storage/classes/Note/${created}` },
  ]);
  expect(await described()).toMatchObject({ author: 1, rating: 1, likes: 0 });
  await admin('POST', '/tables/Note/import', {
    rows: [{ title: 'in', likes: [pointer('Author', ann)] }, { rating: 2 }],
  });
  await admin('PATCH', '/tables/Note/columns/rating', { name: 'stars' });
  await admin('DELETE', '/tables/Note/columns/views');
  const saved = await described();
  expect(saved).toEqual({ title: 4, author: 1, likes: 1, stars: 2 });

  // A named snapshot shares the table until the next write, which goes to a copy with its own counts.
  expect((await server.admin('/__admin/snapshots/counted', { method: 'PUT' })).status).toBe(201);
  await db.create('Note', { title: 'after', stars: 5 });
  expect(await described()).toMatchObject({ title: 5, stars: 3 });
  expect((await server.admin('/__admin/snapshots/counted/restore', { method: 'POST' })).status).toBe(200);
  expect(await described()).toEqual(saved);
  await db.create('Note', { likes: likes('AddRelation', bob) });
  expect(await described()).toMatchObject({ likes: 2 });
  const { body } = await admin<TableSchema>('GET', '/tables/Author');
  expect(body.referencedBy).toEqual([
    { table: 'Note', column: 'author', type: 'Pointer', rowsWithValue: 1 },
    { table: 'Note', column: 'likes', type: 'Relation', rowsWithValue: 2 },
  ]);
  await server.admin('/__admin/snapshots/counted', { method: 'DELETE' });
});
