// A relation column "behaves like an array of pointers" (the contract's `DatabaseRow`): rows show it so, as the service's published
// clients read it (docs/published-clients.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { database, pointer, seed, type Database } from './support.js';

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer();
  db = database(server, (await createUser(server, 'relations-ann')).auth);
});
afterAll(() => server.close());

/** A Team row related to new Member rows ann, bob and cat; their ids. */
async function team(table: string): Promise<{ teamId: string; members: string[] }> {
  const members = await seed(db, `${table}Member`, [{ name: 'ann' }, { name: 'bob' }, { name: 'cat' }]);
  const { body } = await db.create(table, {
    name: 'red',
    members: { __op: 'AddRelation', objects: members.map((id) => pointer(`${table}Member`, id)) },
  });
  return { teamId: body._id, members };
}

describe('a relation column in a row', () => {
  it('is the array of pointers to the related rows, in the order they were added; [] once all are removed', async () => {
    const { teamId, members } = await team('Squad');
    const shown = (await db.get('Squad', teamId)).body['members'];
    expect(shown).toEqual(members.map((id) => pointer('SquadMember', id)));
    await db.update('Squad', teamId, { members: { __op: 'RemoveRelation', objects: shown } });
    expect((await db.get('Squad', teamId)).body['members']).toEqual([]);
  });

  it('is shown so in query results too, and $relatedTo still finds the rows', async () => {
    const { teamId, members } = await team('Crew');
    const [row] = (await db.query('Crew', { _id: teamId })).body.results;
    expect(row!['members']).toEqual(members.map((id) => pointer('CrewMember', id)));
    const related = await db.query(
      'CrewMember',
      { $relatedTo: { object: pointer('Crew', teamId), key: 'members' } },
      'order=name',
    );
    expect(related.body.results.map((r) => r['name'])).toEqual(['ann', 'bob', 'cat']);
  });

  it('follows keys (left out unless kept) and include (the related rows embedded, as for any array of pointers)', async () => {
    const { teamId } = await team('Band');
    const [named] = (await db.query('Band', { _id: teamId }, 'keys=name')).body.results;
    expect(named).not.toHaveProperty('members');
    const [kept] = (await db.query('Band', { _id: teamId }, 'keys=members')).body.results;
    expect(kept!['members']).toHaveLength(3);
    const [included] = (await db.query('Band', { _id: teamId }, 'include=members')).body.results;
    expect((included!['members'] as Record<string, unknown>[]).map((m) => [m['__type'], m['name']])).toEqual([
      ['Object', 'ann'],
      ['Object', 'bob'],
      ['Object', 'cat'],
    ]);
  });

  it('is shown as pointers in a row embedded by include', async () => {
    const { teamId, members } = await team('Club');
    const { body } = await db.create('Fan', { club: pointer('Club', teamId) });
    const [fan] = (await db.query('Fan', { _id: body._id }, 'include=club')).body.results;
    expect((fan!['club'] as Record<string, unknown>)['members']).toEqual(
      members.map((id) => pointer('ClubMember', id)),
    );
  });

  it('still refuses a relation written directly, as an array of pointers or as the marker', async () => {
    const { teamId } = await team('Choir');
    expect((await db.update('Choir', teamId, { members: [pointer('ChoirMember', 'x')] })).body.code).toBe(111);
    expect(
      (await db.update('Choir', teamId, { members: { __type: 'Relation', className: 'ChoirMember' } })).body.code,
    ).toBe(111);
  });

  it('charges a query for the pointers it shows (maxQueryCost)', async () => {
    // Whether a related row exists is not checked (as for pointers): 4,000 made-up ids are about 250 KiB of answer.
    const objects = Array.from({ length: 4000 }, (_, i) => pointer('HordeMember', `m${i}`));
    await db.create('Horde', { members: { __op: 'AddRelation', objects } });
    const setBudget = (maxQueryCost: number) => server.patchConfig({ maxQueryCost });
    const { maxQueryCost } = (await (await server.admin('/__admin/config')).json()) as { maxQueryCost: number };
    await setBudget(1000);
    try {
      expect((await db.query('Horde', {}, 'keys=_id')).status).toBe(200);
      expect((await db.query('Horde')).body.code).toBe(150);
    } finally {
      await setBudget(maxQueryCost);
    }
    expect((await db.query('Horde')).body.results[0]!['members']).toHaveLength(4000);
  });
});
