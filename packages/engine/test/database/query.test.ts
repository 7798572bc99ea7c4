import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, date, pointer, seed, type Database } from './support.js';

let server: TestServer;
let db: Database;
let teams: string[];
const players = [
  {
    name: 'ann',
    score: 30,
    level: 2,
    tags: ['red', 'blue'],
    born: date('1990-05-01T00:00:00.000Z'),
    address: { city: 'Oslo' },
  },
  {
    name: 'bob',
    score: 10,
    level: 1,
    tags: ['red'],
    born: date('2001-01-01T00:00:00.000Z'),
    address: { city: 'Rome' },
  },
  { name: 'cid', score: 20, level: 2, tags: [], born: date('1985-12-31T23:59:59.999Z') },
  { name: 'dan', score: 20, level: 1, nick: 'Danny' },
  { name: 'eve', score: 50, level: 3, tags: ['blue', 'green'] },
];

beforeAll(async () => {
  server = await startTestServer();
  db = database(server, (await createUser(server, 'query-ann')).auth);
  teams = await seed(db, 'Team', [
    { title: 'Owls', city: 'Oslo', coach: pointer('Coach', 'c1') },
    { title: 'Bats', city: 'Rome' },
  ]);
  const coach = await db.create('Coach', { name: 'Kim' });
  await db.update('Team', teams[0]!, { coach: pointer('Coach', coach.body._id) });
  await seed(
    db,
    'Player',
    players.map((p, i) => ({ ...p, team: pointer('Team', teams[i % 2]!) })),
  );
});
afterAll(() => server.close());

async function names(where: unknown, params = 'order=name'): Promise<string[]> {
  const res = await db.query('Player', where, params);
  expect(res.status).toBe(200);
  return res.body.results.map((r) => r.name as string);
}

describe('query operators (docs/database.md#queries)', () => {
  it('an empty body returns every row', async () => {
    const res = await server.request('/object-storage/classes/query/Player', {
      method: 'POST',
      headers: {
        'X-Service-Object-Storage-Id': server.config.objectStorageId,
        ...(await createUser(server, 'query-empty')).auth,
      },
    });
    expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(5);
  });

  it('equality on several columns is AND', async () => {
    expect(await names({ score: 20 })).toEqual(['cid', 'dan']);
    expect(await names({ score: 20, level: 1 })).toEqual(['dan']);
  });

  it('equality on an array column means "array contains"', async () => {
    expect(await names({ tags: 'red' })).toEqual(['ann', 'bob']);
  });

  it('$lt, $lte, $gt, $gte, $ne', async () => {
    expect(await names({ score: { $lt: 20 } })).toEqual(['bob']);
    expect(await names({ score: { $lte: 20 } })).toEqual(['bob', 'cid', 'dan']);
    expect(await names({ score: { $gt: 20 } })).toEqual(['ann', 'eve']);
    expect(await names({ score: { $gte: 20, $lt: 50 } })).toEqual(['ann', 'cid', 'dan']);
    expect(await names({ score: { $ne: 20 } })).toEqual(['ann', 'bob', 'eve']);
    expect(await names({ name: { $gt: 'cid' } })).toEqual(['dan', 'eve']);
  });

  it('$in and $nin', async () => {
    expect(await names({ score: { $in: [10, 50] } })).toEqual(['bob', 'eve']);
    expect(await names({ score: { $nin: [10, 50] } })).toEqual(['ann', 'cid', 'dan']);
    expect(await names({ tags: { $in: ['green'] } })).toEqual(['eve']);
  });

  it('$exists', async () => {
    expect(await names({ nick: { $exists: true } })).toEqual(['dan']);
    expect(await names({ born: { $exists: false } })).toEqual(['dan', 'eve']);
  });

  it('$all', async () => {
    expect(await names({ tags: { $all: ['blue', 'red'] } })).toEqual(['ann']);
    expect(await names({ tags: { $all: ['blue'] } })).toEqual(['ann', 'eve']);
  });

  it('$regex with $options', async () => {
    expect(await names({ name: { $regex: '^[a-c]' } })).toEqual(['ann', 'bob', 'cid']);
    expect(await names({ nick: { $regex: 'danny', $options: 'i' } })).toEqual(['dan']);
    expect(await names({ tags: { $regex: 'ee' } })).toEqual(['eve']);
  });

  it('$regex with a pathological pattern answers (re2js runs in linear time)', async () => {
    await db.create('Text', { body: `${'a'.repeat(50_000)}!` });
    const res = await db.query('Text', { body: { $regex: '(a+)+$' } });
    expect(res).toEqual({ status: 200, body: { results: [] } });
  });

  it('$or, with other constraints beside it', async () => {
    expect(await names({ $or: [{ score: 10 }, { score: 50 }] })).toEqual(['bob', 'eve']);
    expect(await names({ $or: [{ score: 10 }, { level: 2 }], tags: 'red' })).toEqual(['ann', 'bob']);
    expect(await names({ $and: [{ score: { $gt: 10 } }, { score: { $lt: 50 } }] })).toEqual(['ann', 'cid', 'dan']);
  });

  it('equality, $in and $ne on a pointer column take pointers', async () => {
    expect(await names({ team: pointer('Team', teams[1]!) })).toEqual(['bob', 'dan']);
    expect(await names({ team: { $in: [pointer('Team', teams[1]!)] } })).toEqual(['bob', 'dan']);
    expect(await names({ team: { $ne: pointer('Team', teams[1]!) } })).toEqual(['ann', 'cid', 'eve']);
  });

  it('dates compare chronologically, in either input form', async () => {
    expect(await names({ born: { $lt: date('1991-01-01T00:00:00.000Z') } })).toEqual(['ann', 'cid']);
    expect(await names({ born: { $gte: date('2001-01-01T00:00:00.000UTC') } })).toEqual(['bob']);
    expect(await names({ born: date('1985-12-31T23:59:59.999UTC') })).toEqual(['cid']);
    expect(await names({ createdAt: { $lte: date('2999-01-01T00:00:00.000Z') } })).toHaveLength(5);
  });

  it('$inQuery and $notInQuery follow pointers into rows matching a sub-query', async () => {
    expect(await names({ team: { $inQuery: { className: 'Team', where: { city: 'Oslo' } } } })).toEqual([
      'ann',
      'cid',
      'eve',
    ]);
    expect(await names({ team: { $notInQuery: { className: 'Team', where: { city: 'Oslo' } } } })).toEqual([
      'bob',
      'dan',
    ]);
  });

  it('$select, $dontSelect and $dontselect match values of a key in a sub-query', async () => {
    const sub = { query: { className: 'Team', where: { title: 'Owls' } }, key: 'city' };
    expect(await names({ 'address.city': { $select: sub } })).toEqual(['ann']);
    expect(await names({ 'address.city': { $dontSelect: sub } })).toEqual(['bob', 'cid', 'dan', 'eve']);
    expect(await names({ 'address.city': { $dontselect: sub } })).toEqual(['bob', 'cid', 'dan', 'eve']);
  });

  it.each([
    ['an unknown operator', { score: { $near: 1 } }, 102],
    ['an unknown top-level operator', { $where: 'true' }, 102],
    ['$in without an array', { score: { $in: 1 } }, 102],
    ['$exists without a boolean', { score: { $exists: 1 } }, 102],
    ['an invalid regular expression', { name: { $regex: '(a' } }, 102],
    ['a lookahead re2 cannot run', { name: { $regex: '(?=a)' } }, 102],
    ['an unknown regex flag', { name: { $regex: 'a', $options: 'g' } }, 102],
    ['$or without an array', { $or: { a: 1 } }, 102],
    ['$inQuery without className', { team: { $inQuery: { where: {} } } }, 102],
    ['$select without key', { name: { $select: { query: { className: 'Team' } } } }, 102],
    ['$relatedTo with a malformed pointer', { $relatedTo: { object: { _id: 'x' }, key: 'tags' } }, 106],
    ['a bad column name', { 'a-b': 1 }, 105],
    ['the ACL column', { ACL: 1 }, 105],
    ['a JSON array body', [], 107],
    ['invalid JSON', '{', 107],
  ])('refuses %s', async (_, where, code) => {
    expect(await db.query('Player', where)).toEqual({ status: 400, body: { code, error: expect.any(String) } });
  });

  it('refuses a query nested too deeply', async () => {
    let where: Record<string, unknown> = { score: 1 };
    for (let i = 0; i < 60; i++) where = { $or: [where] };
    expect((await db.query('Player', where)).body.code).toBe(102);
  });
});

describe('URL parameters (queryRows)', () => {
  it('order: several columns, "-" for descending', async () => {
    expect(await names({}, 'order=-score,name')).toEqual(['eve', 'ann', 'cid', 'dan', 'bob']);
    expect(await names({}, 'order=level,-name')).toEqual(['dan', 'bob', 'cid', 'ann', 'eve']);
  });

  it('limit and skip page through the rows', async () => {
    expect(await names({}, 'order=name&limit=2')).toEqual(['ann', 'bob']);
    expect(await names({}, 'order=name&limit=2&skip=2')).toEqual(['cid', 'dan']);
    expect(await names({}, 'order=name&skip=4')).toEqual(['eve']);
    expect(await names({}, 'limit=2&skip=1')).toEqual(['bob', 'cid']);
  });

  it('keys returns only the listed columns plus _id, createdAt and updatedAt', async () => {
    const { body } = await db.query('Player', { name: 'ann' }, 'keys=name,address.city');
    expect(body.results).toEqual([
      {
        _id: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        name: 'ann',
        address: { city: 'Oslo' },
      },
    ]);
  });

  it('include embeds the pointed row as {__type: Object, className}, also dotted', async () => {
    const { body } = await db.query('Player', { name: 'ann' }, 'include=team.coach');
    expect(body.results[0]!.team).toMatchObject({
      __type: 'Object',
      className: 'Team',
      _id: teams[0],
      title: 'Owls',
      coach: { __type: 'Object', className: 'Coach', name: 'Kim' },
    });
    const plain = await db.query('Player', { name: 'ann' });
    expect(plain.body.results[0]!.team).toEqual(pointer('Team', teams[0]!));
  });

  it('count adds the number of matches; with limit=0 only the count', async () => {
    expect((await db.query('Player', { level: 2 }, 'count=1&limit=1')).body).toEqual({
      results: [expect.any(Object)],
      count: 2,
    });
    expect((await db.query('Player', { level: { $gte: 1 } }, 'count=1&limit=0')).body).toEqual({
      results: [],
      count: 5,
    });
  });

  it('sample returns that many distinct random matching rows', async () => {
    const { body } = await db.query('Player', { score: { $gte: 20 } }, 'sample=3');
    expect(body.results).toHaveLength(3);
    expect(new Set(body.results.map((r) => r.name)).size).toBe(3);
    for (const row of body.results) expect(row.score).toBeGreaterThanOrEqual(20);
    expect((await db.query('Player', {}, 'sample=50')).body.results).toHaveLength(5);
  });

  it.each([
    'limit=-1',
    'limit=1001',
    'limit=x',
    'skip=-1',
    'sample=0',
    'sample=1001',
    'count=maybe',
    'order=a-b',
    'keys=$x',
    'include=a..b',
  ])('refuses %s', async (params) => {
    const res = await db.query('Player', {}, params);
    expect(res.status).toBe(400);
    expect([102, 105]).toContain(res.body.code);
  });

  it('limit defaults to 100 and reaches 1000', async () => {
    await db.batch(Array.from({ length: 50 }, (_, i) => ({ method: 'POST', path: '/classes/Many', body: { i } })));
    await db.batch(
      Array.from({ length: 50 }, (_, i) => ({ method: 'POST', path: '/classes/Many', body: { i: i + 50 } })),
    );
    await db.batch(
      Array.from({ length: 20 }, (_, i) => ({ method: 'POST', path: '/classes/Many', body: { i: i + 100 } })),
    );
    expect((await db.query('Many')).body.results).toHaveLength(100);
    expect((await db.query('Many', {}, 'limit=1000')).body.results).toHaveLength(120);
    const top = (await db.query('Many', { i: { $gt: 10 } }, 'order=-i&limit=3')).body.results.map((r) => r.i);
    expect(top).toEqual([119, 118, 117]);
  });
});
