import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, type Database } from './support.js';

let server: TestServer;
let db: Database;
let otherDb: Database;
beforeAll(async () => {
  server = await startTestServer();
  const ann = await createUser(server, 'batch-ann');
  db = database(server, ann.auth);
  otherDb = database(server, (await createUser(server, 'batch-bob')).auth);
});
afterAll(() => server.close());

describe('batch', () => {
  it('runs items in order; each yields the single response or {error}; the status is 200', async () => {
    const first = await db.create('Item', { n: 1 });
    const res = await db.batch([
      { method: 'POST', path: '/classes/Item', body: { n: 2 } },
      { method: 'PUT', path: `/classes/Item/${first.body._id}`, body: { n: { __op: 'Increment', amount: 10 } } },
      { method: 'POST', path: '/object-storage/classes/Item/', body: { n: 'text' } },
      { method: 'DELETE', path: '/classes/Item/missing' },
      { method: 'PUT', path: `/classes/Item/${first.body._id}`, body: { n: { __op: 'Increment', amount: 100 } } },
      { method: 'DELETE', path: `/classes/Item/${first.body._id}` },
      { method: 'PUT', path: `/classes/Item/${first.body._id}`, body: { n: 0 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { success: { createdAt: expect.any(String), _id: expect.any(String) } },
      { success: { updatedAt: expect.any(String) } },
      { error: { code: 111, error: expect.any(String) } },
      { error: { code: 101, error: expect.any(String) } },
      { success: { updatedAt: expect.any(String) } },
      { success: {} },
      { error: { code: 101, error: expect.any(String) } },
    ]);
    const rows = (await db.query('Item', {}, 'order=n')).body.results.map((r) => r.n);
    expect(rows).toEqual([2]);
  });

  it("items run with the caller's ACL rights", async () => {
    const { body } = await db.create('Owned', { n: 1, ACL: { '*': { read: true } } });
    const res = await otherDb.batch([{ method: 'PUT', path: `/classes/Owned/${body._id}`, body: { n: 2 } }]);
    expect(res.body).toEqual([{ error: { code: 119, error: expect.any(String) } }]);
  });

  it('50 items are fine, 51 are 400 and nothing runs', async () => {
    const item = { method: 'POST', path: '/classes/Limit', body: { x: 1 } };
    expect((await db.batch(Array(50).fill(item))).body).toHaveLength(50);
    expect(await db.batch(Array(51).fill(item))).toEqual({
      status: 400,
      body: { code: 107, error: expect.any(String) },
    });
    expect((await db.query('Limit', {}, 'count=1&limit=0')).body.count).toBe(50);
  });

  it.each([
    ['no requests array', { nope: [] }],
    ['an item that is not an object', { requests: [1] }],
    ['an unroutable path', { requests: [{ method: 'POST', path: '/users' }] }],
    ['an unsupported method', { requests: [{ method: 'GET', path: '/classes/Item/x' }] }],
    ['a body that is not an object', { requests: [{ method: 'POST', path: '/classes/Item', body: [1] }] }],
  ])('refuses %s with 400 before running any item', async (_, body) => {
    const before = (await db.query('Safe', {}, 'count=1&limit=0')).body.count;
    const requests = [
      { method: 'POST', path: '/classes/Safe', body: { a: 1 } },
      ...((body as { requests?: unknown[] }).requests ?? []),
    ];
    const res = await db.call('POST', '/batch', 'requests' in body ? { requests } : body);
    expect(res).toEqual({ status: 400, body: { code: 107, error: expect.any(String) } });
    expect((await db.query('Safe', {}, 'count=1&limit=0')).body.count).toBe(before);
  });

  it('an empty batch answers []', async () => {
    expect(await db.batch([])).toEqual({ status: 200, body: [] });
  });
});
