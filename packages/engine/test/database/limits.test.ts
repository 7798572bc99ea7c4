// Limits of what a write may store: a row's size (maxRowBytes), a table's columns (maxTableColumns), and operators
// that stay linear however long their lists are. A refused write changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, type Database } from './support.js';

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer({ maxRowBytes: 2048, maxTableColumns: 10 });
  db = database(server, (await createUser(server, 'limits-ann')).auth);
});
afterAll(() => server.close());

describe('maxRowBytes', () => {
  it('refuses a create whose row would pass it with 413 code 151, and stores nothing', async () => {
    const res = await db.create('Note', { text: 'x'.repeat(2048) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 151, error: expect.stringContaining('maxRowBytes') });
    expect((await db.query('Note', {}, 'count=1')).body.count).toBe(0);
  });

  it('refuses an update that would grow the row past it (Add, Set), and leaves the row as it was', async () => {
    const { body } = await db.create('Note', { tags: ['a'], text: 'short' });
    for (const change of [
      { tags: { __op: 'Add', objects: ['y'.repeat(1000), 'z'.repeat(1000)] } },
      { text: 'w'.repeat(2000) },
    ]) {
      const res = await db.update('Note', body._id, change);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe(151);
    }
    expect((await db.get('Note', body._id)).body).toMatchObject({ tags: ['a'], text: 'short' });
  });

  it('counts the size as UTF-8 JSON: 700 three-byte characters (2,100 bytes) do not fit, 600 do', async () => {
    expect((await db.create('Note', { text: '€'.repeat(700) })).status).toBe(413);
    expect((await db.create('Note', { text: '€'.repeat(600) })).status).toBe(201);
  });

  it('a refused batch item answers its own error and the next items still run', async () => {
    const res = await db.batch([
      { method: 'POST', path: '/classes/Note', body: { text: 'x'.repeat(3000) } },
      { method: 'POST', path: '/classes/Note', body: { text: 'fits' } },
    ]);
    expect(res.body).toEqual([
      { error: { code: 151, error: expect.any(String) } },
      { success: expect.objectContaining({ _id: expect.any(String) }) },
    ]);
  });
});

describe('maxTableColumns', () => {
  it('refuses a write that would add an eleventh column with 400 code 152; existing columns stay writable', async () => {
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`c${i}`, i]));
    expect((await db.create('Wide', nine)).status).toBe(201);
    const { body } = await db.create('Wide', { c9: 9 });
    const res = await db.update('Wide', body._id, { c10: 10 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 152, error: expect.stringContaining('maxTableColumns') });
    expect((await db.create('Wide', { c0: 1, c9: 2 })).status).toBe(201);
    expect((await db.get('Wide', body._id)).body).not.toHaveProperty('c10');
  });
});

describe('operators on long lists stay linear', () => {
  let big: TestServer;
  let bigDb: Database;
  beforeAll(async () => {
    big = await startTestServer();
    bigDb = database(big, (await createUser(big, 'limits-bob')).auth);
  });
  afterAll(() => big.close());

  it('AddUnique and Remove of 20,000 values each answer in seconds at most (it took 53 s)', async () => {
    const values = Array.from({ length: 20_000 }, (_, i) => i);
    const { body } = await bigDb.create('List', { n: [] });
    for (const op of ['AddUnique', 'Remove']) {
      const start = performance.now();
      const res = await bigDb.update('List', body._id, { n: { __op: op, objects: values } });
      expect(res.status).toBe(200);
      // It took 53 s; milliseconds now. The bound only tells the two apart, on any machine.
      expect(performance.now() - start).toBeLessThan(10_000);
    }
    expect((await bigDb.get('List', body._id)).body.n).toEqual([]);
  });

  it('AddUnique keeps values equal in any key order once, and Remove removes them', async () => {
    const { body } = await bigDb.create('List', { pairs: [{ a: 1, b: 2 }] });
    await bigDb.update('List', body._id, {
      pairs: { __op: 'AddUnique', objects: [{ b: 2, a: 1 }, { a: 1 }, { a: 1 }] },
    });
    expect((await bigDb.get('List', body._id)).body.pairs).toEqual([{ a: 1, b: 2 }, { a: 1 }]);
    await bigDb.update('List', body._id, { pairs: { __op: 'Remove', objects: [{ b: 2, a: 1 }] } });
    expect((await bigDb.get('List', body._id)).body.pairs).toEqual([{ a: 1 }]);
  });
});
