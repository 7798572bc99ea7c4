import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth } from '../support/users.js';
import { database, date, pointer, type Database } from './support.js';

let server: TestServer;
let db: Database;
let master: Database;
beforeAll(async () => {
  server = await startTestServer();
  db = database(server, (await createUser(server, 'rows-ann')).auth);
  master = database(server, await masterAuth(server));
});
afterAll(() => server.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('create, get, update, delete', () => {
  it('creates a row (201 {createdAt, _id}) and returns it whole by id', async () => {
    const row = {
      title: 'hello',
      n: 1.5,
      done: false,
      meta: { a: { b: [1, 2] } },
      tags: ['x', { y: 1 }],
      owner: pointer('People', 'p1'),
    };
    const created = await db.create('Note', row);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ createdAt: expect.stringMatching(ISO), _id: expect.any(String) });
    const got = await db.get('Note', created.body._id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      _id: created.body._id,
      createdAt: created.body.createdAt,
      updatedAt: created.body.createdAt,
      ...row,
    });
  });

  it('accepts the path without the trailing slash too', async () => {
    const res = await db.call('POST', '/classes/Note', { title: 'no slash' });
    expect(res.status).toBe(201);
  });

  it('stores dates as {__type: Date, iso} and accepts the UTC suffix form', async () => {
    const { body } = await db.create('Event', {
      at: date('2024-01-02T03:04:05.678UTC'),
      plain: date('2024-01-02T03:04:05Z'),
    });
    const got = await db.get('Event', body._id);
    expect(got.body.at).toEqual(date('2024-01-02T03:04:05.678Z'));
    expect(got.body.plain).toEqual(date('2024-01-02T03:04:05.000Z'));
  });

  it('updates only the given columns and answers {updatedAt}', async () => {
    const { body } = await db.create('Note', { title: 'a', keep: 1 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await db.update('Note', body._id, { title: 'b' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ updatedAt: expect.stringMatching(ISO) });
    expect(updated.body.updatedAt > body.createdAt).toBe(true);
    const got = await db.get('Note', body._id);
    expect(got.body).toMatchObject({
      title: 'b',
      keep: 1,
      createdAt: body.createdAt,
      updatedAt: updated.body.updatedAt,
    });
  });

  it('deletes a row (200 {}) after which it is gone', async () => {
    const { body } = await db.create('Note', { title: 'bye' });
    expect(await db.remove('Note', body._id)).toEqual({ status: 200, body: {} });
    expect(await db.get('Note', body._id)).toEqual({ status: 404, body: { code: 101, error: expect.any(String) } });
    expect((await db.remove('Note', body._id)).status).toBe(404);
  });

  it('deletes all rows of a table with the master token only, answering {deletedCount}', async () => {
    await db.create('Bulk', { n: 1 });
    await db.create('Bulk', { n: 2 });
    expect(await db.removeAll('Bulk')).toEqual({ status: 403, body: { code: 119, error: expect.any(String) } });
    expect(await master.removeAll('Bulk')).toEqual({ status: 200, body: { deletedCount: 2 } });
    expect((await db.query('Bulk')).body.results).toEqual([]);
    expect(await master.removeAll('NeverWritten')).toEqual({ status: 200, body: { deletedCount: 0 } });
  });
});

describe('unknown tables and rows', () => {
  it('answers 404 code 101 for a row of an unknown table or an unknown id', async () => {
    for (const res of [
      await db.get('Nothing', 'abc'),
      await db.update('Nothing', 'abc', { a: 1 }),
      await db.remove('Nothing', 'abc'),
    ]) {
      expect(res).toEqual({ status: 404, body: { code: 101, error: expect.any(String) } });
    }
    await db.create('Known', { a: 1 });
    expect((await db.update('Known', 'missing', { a: 2 })).status).toBe(404);
  });

  it('queries of an unknown table return no rows', async () => {
    expect(await db.query('Nothing', {}, 'count=1')).toEqual({ status: 200, body: { results: [], count: 0 } });
  });
});

describe('column types are fixed by the first value', () => {
  it.each([
    ['String', 'text', 5],
    ['Number', 5, 'five'],
    ['Boolean', true, 1],
    ['Date', date('2024-01-01T00:00:00.000Z'), '2024-01-01'],
    ['Object', { a: 1 }, [1]],
    ['Array', [1], { a: 1 }],
    ['Pointer', pointer('People', 'a'), pointer('Other', 'a')],
  ])('refuses another type in a %s column (400, code 111) and changes nothing', async (type, first, other) => {
    const table = `Typed${type}`;
    const { body } = await db.create(table, { col: first });
    expect(await db.create(table, { col: other, more: 1 })).toEqual({
      status: 400,
      body: { code: 111, error: expect.any(String) },
    });
    expect(await db.update(table, body._id, { col: other, more: 1 })).toMatchObject({
      status: 400,
      body: { code: 111 },
    });
    const rows = (await db.query(table)).body.results;
    expect(rows).toHaveLength(1);
    expect(rows[0]).not.toHaveProperty('more');
    expect(rows[0]!.col).toEqual(first);
  });

  it('lets null into any column without fixing its type', async () => {
    await db.create('Nullable', { col: null });
    expect((await db.create('Nullable', { col: 'text' })).status).toBe(201);
    expect((await db.create('Nullable', { col: null })).status).toBe(201);
  });
});

describe('bad input answers 4xx {code, error} and changes nothing', () => {
  it.each([
    ['invalid JSON', '{"a": ', 107],
    ['a JSON array', '[1]', 107],
    ['a bad column name', { 'bad name': 1 }, 105],
    ['a column starting with a digit', { '1a': 1 }, 105],
    ['a server column', { _id: 'mine' }, 105],
    ['createdAt', { createdAt: '2024-01-01T00:00:00.000Z' }, 105],
    ['a JSON object key with a dot', { meta: { 'a.b': 1 } }, 105],
    ['a JSON object key with a dollar', { meta: { $gt: 1 } }, 105],
    ['an unknown operator', { n: { __op: 'Multiply', amount: 2 } }, 107],
    ['a malformed pointer', { owner: { __type: 'Pointer', className: 'People' } }, 106],
    ['a pointer to a bad table name', { owner: pointer('bad table', 'x') }, 103],
    ['a malformed date', { at: date('yesterday') }, 111],
    ['an unsupported __type', { f: { __type: 'File', name: 'x' } }, 111],
    ['a relation value written directly', { r: { __type: 'Relation', className: 'People' } }, 111],
    ['an Increment without a number', { n: { __op: 'Increment', amount: '1' } }, 111],
    ['a malformed ACL', { ACL: { '*': { read: 'yes' } } }, 111],
    ['an ACL with an unknown permission', { ACL: { '*': { delete: true } } }, 111],
  ])('create with %s', async (_, body, code) => {
    const res = await db.create('Strict', body);
    expect(res).toEqual({ status: 400, body: { code, error: expect.any(String) } });
    expect((await db.query('Strict')).body.results).toEqual([]);
  });

  it('refuses values nested too deeply', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect((await db.create('Strict', { deep })).body.code).toBe(111);
  });

  it('refuses a bad table name with 103, and the reserved name "query"', async () => {
    for (const name of ['_Hidden', '9lives', 'a-b', 'query']) {
      expect(await db.create(name, { a: 1 })).toEqual({ status: 400, body: { code: 103, error: expect.any(String) } });
    }
    expect((await db.get('a-b', 'x')).body.code).toBe(103);
  });

  it('applies nothing of an update when one column is bad', async () => {
    const { body } = await db.create('Atomic', { a: 1, b: 'x' });
    const res = await db.update('Atomic', body._id, { a: 2, b: 3 });
    expect(res.body.code).toBe(111);
    expect((await db.get('Atomic', body._id)).body).toMatchObject({ a: 1, b: 'x' });
  });
});

describe('headers', () => {
  it('needs the database id (404) and a valid token (401)', async () => {
    const wrongId = await db.call('GET', '/classes/Note/x', undefined, { 'X-Service-Object-Storage-Id': 'other' });
    expect(wrongId).toEqual({ status: 404, body: { code: 210, error: expect.any(String) } });
    const anonymous = database(server, {});
    expect(await anonymous.create('Note', { a: 1 })).toEqual({
      status: 401,
      body: { code: 209, error: expect.any(String) },
    });
    const forged = database(server, { Authorization: 'Bearer not.a.token' });
    expect((await forged.query('Note')).status).toBe(401);
  });

  it('answers 503 while the database service is disabled', async () => {
    await server.patchConfig({ services: { database: false } });
    try {
      expect((await db.query('Note')).status).toBe(503);
    } finally {
      await server.patchConfig({ services: { database: true } });
    }
  });
});
