import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, pointer, seed, type Database } from './support.js';

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer();
  db = database(server, (await createUser(server, 'ops-ann')).auth);
});
afterAll(() => server.close());

async function afterUpdate(table: string, initial: Record<string, unknown>, changes: Record<string, unknown>) {
  const { body } = await db.create(table, initial);
  const res = await db.update(table, body._id, changes);
  expect(res.status).toBe(200);
  return (await db.get(table, body._id)).body;
}

describe('number and array operators', () => {
  it('Increment adds (a negative amount subtracts) and starts a missing column at 0', async () => {
    expect(await afterUpdate('Counter', { n: 10 }, { n: { __op: 'Increment', amount: -3 } })).toMatchObject({ n: 7 });
    expect(await afterUpdate('Counter', {}, { n: { __op: 'Increment', amount: 2.5 } })).toMatchObject({ n: 2.5 });
  });

  it('Increment on a column that is not a number is 111', async () => {
    const { body } = await db.create('CounterText', { n: 'ten' });
    expect((await db.update('CounterText', body._id, { n: { __op: 'Increment', amount: 1 } })).body.code).toBe(111);
  });

  it('Add appends, AddUnique appends what is missing, Remove removes every copy', async () => {
    const row = await afterUpdate(
      'Bag',
      { add: [1], uniq: ['a', { k: 1 }], rem: [1, 2, 1, { k: 1 }] },
      {
        add: { __op: 'Add', objects: [1, 2] },
        uniq: { __op: 'AddUnique', objects: ['a', 'b', { k: 1 }, 'b'] },
        rem: { __op: 'Remove', objects: [1, { k: 1 }, 9] },
      },
    );
    expect(row).toMatchObject({ add: [1, 1, 2], uniq: ['a', { k: 1 }, 'b'], rem: [2] });
  });

  it('array operators on a missing column start from an empty array', async () => {
    const row = await afterUpdate(
      'Bag',
      {},
      {
        a: { __op: 'Add', objects: [1] },
        u: { __op: 'AddUnique', objects: [1, 1] },
        r: { __op: 'Remove', objects: [1] },
      },
    );
    expect(row).toMatchObject({ a: [1], u: [1], r: [] });
  });

  it('array operators on a non-array column, or without an objects array, are 111', async () => {
    const { body } = await db.create('BagText', { s: 'x', a: [] });
    expect((await db.update('BagText', body._id, { s: { __op: 'Add', objects: [1] } })).body.code).toBe(111);
    expect((await db.update('BagText', body._id, { a: { __op: 'AddUnique', objects: 'x' } })).body.code).toBe(111);
  });

  it('Delete removes a column', async () => {
    const row = await afterUpdate('Erase', { gone: 1, kept: 2 }, { gone: { __op: 'Delete' } });
    expect(row).not.toHaveProperty('gone');
    expect(row).toMatchObject({ kept: 2 });
  });

  it('operators work in create too, applied to an empty row', async () => {
    const { body } = await db.create('Fresh', {
      n: { __op: 'Increment', amount: 3 },
      tags: { __op: 'AddUnique', objects: ['a', 'a'] },
    });
    expect((await db.get('Fresh', body._id)).body).toMatchObject({ n: 3, tags: ['a'] });
  });
});

describe('relations', () => {
  it('AddRelation and RemoveRelation change the related rows; the row shows them as an array of pointers', async () => {
    const [a, b, c] = await seed(db, 'Tag', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    const { body } = await db.create('Post', {
      tags: { __op: 'AddRelation', objects: [pointer('Tag', a!), pointer('Tag', b!)] },
    });
    expect((await db.get('Post', body._id)).body.tags).toEqual([pointer('Tag', a!), pointer('Tag', b!)]);
    const related = async () =>
      (
        await db.query('Tag', { $relatedTo: { object: pointer('Post', body._id), key: 'tags' } }, 'order=name')
      ).body.results.map((r) => r.name);
    expect(await related()).toEqual(['a', 'b']);
    await db.update('Post', body._id, { tags: { __op: 'AddRelation', objects: [pointer('Tag', c!)] } });
    await db.update('Post', body._id, { tags: { __op: 'RemoveRelation', objects: [pointer('Tag', a!)] } });
    expect(await related()).toEqual(['b', 'c']);
  });

  it('refuses pointers into several tables, another target table, or malformed pointers', async () => {
    const { body } = await db.create('Album', { photos: { __op: 'AddRelation', objects: [pointer('Photo', 'p1')] } });
    const mixed = { __op: 'AddRelation', objects: [pointer('Photo', 'p2'), pointer('Tag', 't1')] };
    expect((await db.update('Album', body._id, { photos: mixed })).body.code).toBe(111);
    expect(
      (await db.update('Album', body._id, { photos: { __op: 'AddRelation', objects: [pointer('Tag', 't1')] } })).body
        .code,
    ).toBe(111);
    expect(
      (await db.update('Album', body._id, { photos: { __op: 'AddRelation', objects: [{ _id: 'x' }] } })).body.code,
    ).toBe(106);
    expect((await db.update('Album', body._id, { photos: { __op: 'AddRelation', objects: [] } })).body.code).toBe(111);
  });
});

describe('atomicity', () => {
  it('1,000 concurrent Increments end at exactly their sum', async () => {
    const { body } = await db.create('Hot', { n: 0 });
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        db.update('Hot', body._id, { n: { __op: 'Increment', amount: i % 2 ? 2 : 1 } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect((await db.get('Hot', body._id)).body.n).toBe(1500);
  });
});
