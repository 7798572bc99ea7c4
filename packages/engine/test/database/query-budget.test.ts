import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, type Database } from './support.js';

/** Creates `count` rows `{n: 0..count-1}` in batches of 50. */
async function fill(db: Database, table: string, count: number): Promise<void> {
  for (let start = 0; start < count; start += 50) {
    const items = Array.from({ length: Math.min(50, count - start) }, (_, i) => ({
      method: 'POST',
      path: `/classes/${table}`,
      body: { n: start + i },
    }));
    const res = await db.batch(items);
    if (res.status !== 200) throw new Error(`fill failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

const sameSubQueries = (count: number) => ({
  $or: Array.from({ length: count }, () => ({ self: { $inQuery: { className: 'Big', where: {} } } })),
});

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const start = performance.now();
  const result = await work();
  return { result, ms: performance.now() - start };
}

describe('query amplification on the default budget (5,000 rows)', () => {
  let server: TestServer;
  let db: Database;
  beforeAll(async () => {
    server = await startTestServer();
    db = database(server, (await createUser(server, 'budget-ann')).auth);
    await fill(db, 'Big', 5000);
  });
  afterAll(() => server.close());

  it('one $inQuery over 5,000 rows is answered correctly', async () => {
    const result = await db.query('Big', {
      n: { $lt: 3 },
      self: { $notInQuery: { className: 'Big', where: { n: { $gte: 1 } } } },
    });
    expect(result.status).toBe(200);
    expect(result.body.results.map((r) => r['n'])).toEqual([0, 1, 2]);
  });

  it('one $inQuery whose list holds 4,990 pointers, over 5,000 rows that hold pointers, is answered in seconds at most (it took 22-33 s)', async () => {
    const targets = (await db.query('Big', {}, 'limit=1000&keys=_id')).body.results.map((r) => r['_id'] as string);
    for (let start = 0; start < 5000; start += 50) {
      const items = Array.from({ length: 50 }, (_, i) => ({
        method: 'POST',
        path: '/classes/Linked',
        body: { target: { __type: 'Pointer', className: 'Big', _id: targets[(start + i) % 1000] } },
      }));
      await db.batch(items);
    }
    const { result, ms } = await timed(() =>
      db.query('Linked', { target: { $inQuery: { className: 'Big', where: { n: { $gte: 10 } } } } }, 'limit=0&count=1'),
    );
    expect(result.status).toBe(200);
    expect(result.body.count).toBe(4950);
    // Milliseconds on a quiet machine (the benchmark's figures); the bound only tells the old 22-33 s from now on any machine.
    expect(ms).toBeLessThan(10_000);
  });

  it('100 identical $inQuery (4.7 KB) are answered (they are one sub-query: see the memoization tests below)', async () => {
    const result = await db.query('Big', sameSubQueries(100), 'limit=1');
    expect([200, 400]).toContain(result.status);
  });

  it('1,000 and 3,000 identical $inQuery answer 400 code 150 at once, and other requests go on', async () => {
    for (const count of [1000, 3000]) {
      const row = await db.create('Small', { n: count });
      const [query, get] = await Promise.all([
        timed(() => db.query('Big', sameSubQueries(count), 'limit=1')),
        db.get('Small', row.body._id),
      ]);
      expect(query.result.status).toBe(400);
      expect(query.result.body).toEqual({ code: 150, error: expect.stringMatching(/cost/) });
      // Before: 29 s and 1.26 GB for 1,000, a 500 for 3,000. Milliseconds now; the bound only tells the two apart on any machine.
      expect(query.ms).toBeLessThan(10_000);
      expect(get.status).toBe(200);
    }
  });
});

describe('the cost budget (maxQueryCost 50,000, 1,000 rows)', () => {
  let server: TestServer;
  let db: Database;
  beforeAll(async () => {
    server = await startTestServer({ maxQueryCost: 50_000 });
    db = database(server, (await createUser(server, 'budget-bob')).auth);
    await fill(db, 'Big', 1000);
  });
  afterAll(() => server.close());

  it('evaluates identical sub-queries once: 5 identical are answered, 5 distinct are refused', async () => {
    const identical = {
      $or: Array.from({ length: 5 }, () => ({ n: { $inQuery: { className: 'Big', where: { n: { $gte: 0 } } } } })),
    };
    const distinct = {
      $or: Array.from({ length: 5 }, (_, i) => ({ n: { $inQuery: { className: 'Big', where: { n: { $gte: i } } } } })),
    };
    expect((await db.query('Big', identical, 'limit=0&count=1')).status).toBe(200);
    expect((await db.query('Big', distinct, 'limit=0&count=1')).body.code).toBe(150);
  });

  it('an identical sub-query written with its keys in another order is the same sub-query', async () => {
    const forms = [
      { className: 'Big', where: { n: { $gte: 0, $lt: 2000 } } },
      { where: { n: { $lt: 2000, $gte: 0 } }, className: 'Big' },
    ];
    const where = { $or: Array.from({ length: 6 }, (_, i) => ({ n: { $inQuery: forms[i % 2] } })) };
    expect((await db.query('Big', where, 'limit=0&count=1')).status).toBe(200);
  });

  it('$select and $dontSelect sub-queries are memoized too', async () => {
    const select = { query: { className: 'Big', where: {} }, key: 'n' };
    const where = {
      $or: Array.from({ length: 6 }, (_, i) => ({ n: { [i % 2 ? '$select' : '$dontSelect']: select } })),
    };
    const res = await db.query('Big', where, 'limit=0&count=1');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1000);
  });

  it('counts every row a query visits: counting 1,000 rows with 30 clauses is refused', async () => {
    const where = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`c${i}`, { $exists: false }]));
    const res = await db.query('Big', where, 'limit=1&count=1');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(150);
    expect(res.body.error).toContain('maxQueryCost');
  });

  it('pays for included rows: 10 rows that each include 100 rows are refused, the same rows alone are answered', async () => {
    const [target] = (await db.query('Big', { n: 0 })).body.results;
    const refs = Array.from({ length: 100 }, () => ({ __type: 'Pointer', className: 'Big', _id: target!['_id'] }));
    await fill(db, 'Many', 100);
    const ids = (await db.query('Many', {}, 'keys=_id')).body.results.map((r) => r['_id'] as string);
    await db.batch(ids.slice(0, 50).map((id) => ({ method: 'PUT', path: `/classes/Many/${id}`, body: { refs } })));
    await db.batch(ids.slice(50).map((id) => ({ method: 'PUT', path: `/classes/Many/${id}`, body: { refs } })));
    expect((await db.query('Many', {}, 'limit=10')).status).toBe(200);
    const res = await db.query('Many', {}, 'limit=10&include=refs');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(150);
  });

  it('pays for sorting: 100 order keys over 1,000 rows are refused, one key is answered', async () => {
    expect((await db.query('Big', {}, 'order=-n&skip=2000&limit=10')).status).toBe(200);
    const res = await db.query('Big', {}, `order=${Array(100).fill('n').join(',')}&skip=2000&limit=10`);
    expect(res.body.code).toBe(150);
  });

  it('pays for long operand lists and long $regex patterns before compiling them', async () => {
    const list = await db.query('Big', { n: { $in: Array.from({ length: 30_000 }, (_, i) => i) } }, 'limit=1');
    expect(list.body.code).toBe(150);
    const regex = await db.query('Big', { n: { $regex: 'a'.repeat(5000) } }, 'limit=1');
    expect(regex.body.code).toBe(150);
    expect((await db.query('Big', { n: { $in: [1, 2] } }, 'limit=1')).status).toBe(200);
  });

  it('a refused query changes nothing and the same query with fewer clauses is answered', async () => {
    const where = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`c${i}`, { $exists: false }]));
    const res = await db.query('Big', where, 'limit=1&count=1');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1000);
  });
});

describe('shapes of a query', () => {
  let server: TestServer;
  let db: Database;
  beforeAll(async () => {
    // A budget large enough for the long list below: what is tested here is that nothing answers 500.
    server = await startTestServer({ maxQueryCost: 10_000_000 });
    db = database(server, (await createUser(server, 'budget-cid')).auth);
  });
  afterAll(() => server.close());

  it('have at most 32 steps: a 2,000-step include of a row pointing to itself answers 400 code 105, not 500 (stack overflow)', async () => {
    const { body } = await db.create('Self', { n: 1 });
    await db.update('Self', body._id, { self: { __type: 'Pointer', className: 'Self', _id: body._id } });
    expect((await db.query('Self', {}, `include=${Array(32).fill('self').join('.')}`)).status).toBe(200);
    for (const steps of [33, 2000]) {
      const res = await db.query('Self', {}, `include=${Array(steps).fill('self').join('.')}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(105);
    }
  });

  it('a list of 400,000 values (800 KB) is answered, not a 500 (a spread into push() overflowed the stack)', async () => {
    for (const n of [12, 3, 1]) await db.create('Numbers', { n });
    const res = await db.query(
      'Numbers',
      { n: { $in: Array.from({ length: 400_000 }, (_, i) => i % 10) } },
      'keys=n&order=n',
    );
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => r['n'])).toEqual([1, 3]);
  });
});

describe('an index is used when it costs fewer units (maxQueryCost 6,000, 1,000 rows)', () => {
  let server: TestServer;
  let db: Database;
  beforeAll(async () => {
    server = await startTestServer({ maxQueryCost: 6000 });
    db = database(server, (await createUser(server, 'budget-dee')).auth);
    await fill(db, 'Indexed', 1000);
  });
  afterAll(() => server.close());

  it('a where of 6 units a row whose index holds 700 rows reads them from the index, within the budget', async () => {
    // From the index: 700 rows gathered (2 each) and tested (6 each), 5,600 units; a scan: 1,000 rows, 6,000 units,
    // and the clauses' compilation on top. Before, the index served only plans of fewer than half the rows.
    const res = await db.query('Indexed', { n: { $gte: 300 }, m: { $exists: false } }, 'limit=0&count=1');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(700);
    const scanned = await db.query('Indexed', { n: { $gte: 0 }, m: { $exists: false } }, 'limit=0&count=1');
    expect(scanned.body.code).toBe(150);
  });
});
