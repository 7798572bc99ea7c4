// Columns and keys named like the properties of Object.prototype are ordinary names: a row reads only its own
// columns, never the prototype's functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, pointer, type Database } from './support.js';

const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer();
  db = database(server, (await createUser(server, 'proto-ann')).auth);
});
afterAll(() => server.close());

describe('columns named like Object.prototype properties', () => {
  it.each(NAMES)('Increment on a new column "%s" counts from 0', async (name) => {
    const { body } = await db.create('Counter', { label: name });
    expect((await db.update('Counter', body._id, { [name]: { __op: 'Increment', amount: 1 } })).status).toBe(200);
    expect((await db.get('Counter', body._id)).body[name]).toBe(1);
  });

  it.each(NAMES)('Add, AddUnique and Remove on a new column "%s" start from an empty array', async (name) => {
    for (const [op, expected] of [
      ['Add', [1]],
      ['AddUnique', [1]],
      ['Remove', []],
    ] as const) {
      const { body } = await db.create('List', {});
      expect((await db.update('List', body._id, { [name]: { __op: op, objects: [1] } })).status).toBe(200);
      expect((await db.get('List', body._id)).body[name]).toEqual(expected);
    }
  });

  it('a query, order, keys and include on such names see only rows that have the column', async () => {
    const team = await db.create('Team', { title: 'Owls' });
    await db.create('Player', { name: 'ann', toString: 'has it', valueOf: pointer('Team', team.body._id) });
    await db.create('Player', { name: 'bob' });
    const names = async (where: unknown) =>
      (await db.query('Player', where, 'order=name')).body.results.map((r) => r['name']);
    expect(await names({ toString: { $exists: true } })).toEqual(['ann']);
    expect(await names({ constructor: { $exists: true } })).toEqual([]);
    expect(await names({ 'name.constructor': { $exists: true } })).toEqual([]);
    expect(await names({ constructor: { $in: [null] } })).toEqual(['ann', 'bob']);

    const projected = await db.query('Player', {}, 'order=name&keys=name,constructor,hasOwnProperty');
    expect(projected.body.results.map((r) => Object.keys(r).sort())).toEqual([
      ['_id', 'createdAt', 'name', 'updatedAt'],
      ['_id', 'createdAt', 'name', 'updatedAt'],
    ]);
    const included = await db.query('Player', {}, 'order=name&include=valueOf,constructor');
    expect(included.body.results[0]).toMatchObject({ valueOf: { __type: 'Object', className: 'Team', title: 'Owls' } });
    expect(included.body.results[1]).not.toHaveProperty('constructor');
    // Sorting by a column only one row has puts the row without it first, as for any missing column.
    const sorted = await db.query('Player', {}, 'order=-isPrototypeOf,toString');
    expect(sorted.body.results.map((r) => r['name'])).toEqual(['bob', 'ann']);
  });

  it('an ACL may name such a key as a principal without granting anything', async () => {
    const { body } = await db.create('Secret', { ACL: { constructor: { read: true } }, text: 'hidden' });
    expect((await db.get('Secret', body._id)).status).toBe(403);
  });
});
