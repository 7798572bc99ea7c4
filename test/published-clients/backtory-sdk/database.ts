import { expect } from 'vitest';
import type { Service } from '../support/service.js';
import { settle, type Row } from './client.js';
import type { Case } from './case.js';

const pointer = (className: string, _id: string) => ({ __type: 'Pointer', className, _id });

/** A row as the spec's GET answers it. */
async function storedRow(service: Service, table: string, id: string) {
  return service.call('GET', `/object-storage/classes/${table}/${id}`, service.master);
}

/** The ids of the rows of `table` related to the row `ownerId` of `ownerTable` through its relation column `key`. */
async function relatedIds(
  service: Service,
  table: string,
  ownerTable: string,
  ownerId: string,
  key: string,
): Promise<string[]> {
  const reply = await service.call<{ results: { _id: string }[] }>(
    'POST',
    `/object-storage/classes/query/${table}`,
    service.master,
    {
      $relatedTo: { object: pointer(ownerTable, ownerId), key },
    },
  );
  return reply.body.results.map((r) => r._id).sort();
}

/** `lib/storage/objectStorage.js` (rows) and `lib/storage/utils/queryMethods.js` (queries), with the master token. */
export const DATABASE_CASES: Case[] = [
  {
    operation: 'Object.save (create)',
    async drive({ client, service }) {
      const Player = client.Object.extend('CreatedPlayer');
      const player = new Player();
      player.set('name', 'ann');
      player.set('score', 10);
      const [saved] = await settle<[Row]>((o) => player.save(o));
      const id = saved.get('_id');
      expect(id).toEqual(expect.any(String));
      // The client adds an ACL readable and writable by everyone when the row has none.
      expect((await storedRow(service, 'CreatedPlayer', id as string)).body).toMatchObject({
        name: 'ann',
        score: 10,
        ACL: { '*': { read: true, write: true } },
      });
    },
  },
  {
    operation: 'Object.save (update)',
    async drive({ client, service }) {
      const weaponId = await service.row('Weapon', { kind: 'sword' });
      const id = await service.row('UpdatedPlayer', { name: 'ann', score: 10 });
      const [Player, Weapon] = [client.Object.extend('UpdatedPlayer'), client.Object.extend('Weapon')];
      const player = new Player();
      player.set('_id', id);
      player.set('name', 'bob');
      player.increment('score', 5);
      const weapon = new Weapon();
      weapon.set('_id', weaponId);
      player.set('weapon', weapon);
      const seenAt = new Date('2024-05-06T07:08:09.010Z'); // sent as {"__type": "Date", "iso": "…UTC"}
      player.set('seenAt', seenAt);
      const [saved] = await settle<[Row]>((o) => player.save(o));
      expect(saved.get('updatedAt')).toEqual(expect.any(String));
      expect((await storedRow(service, 'UpdatedPlayer', id)).body).toMatchObject({
        name: 'bob',
        score: 15,
        weapon: pointer('Weapon', weaponId),
        seenAt: { __type: 'Date', iso: seenAt.toISOString() },
      });
    },
  },
  {
    operation: 'Object.save (relation add)',
    async drive({ client, service }) {
      const voterId = await service.row('Voter', { name: 'vic' });
      const voteId = await service.row('Vote', { content: 'yes' });
      const [Voter, Vote] = [client.Object.extend('Voter'), client.Object.extend('Vote')];
      const voter = new Voter();
      voter.set('_id', voterId);
      const vote = new Vote();
      vote.set('_id', voteId);
      voter.relation('votes').add(vote);
      await settle<[Row]>((o) => voter.save(o));
      expect(await relatedIds(service, 'Vote', 'Voter', voterId, 'votes')).toEqual([voteId]);
    },
  },
  {
    operation: 'Object.save (relation remove on a fetched row)',
    async drive({ client, service }) {
      const [kept, removed] = [
        await service.row('Ballot', { content: 'kept' }),
        await service.row('Ballot', { content: 'removed' }),
      ];
      const voterId = await service.row('Elector', {
        ballots: { __op: 'AddRelation', objects: [pointer('Ballot', kept), pointer('Ballot', removed)] },
      });
      const voter = new (client.Object.extend('Elector'))();
      voter.set('_id', voterId);
      const [fetched] = await settle<[Row]>((o) => voter.fetch(o));
      // The client reads a fetched relation column as an array of pointers (`isRelation` in lib/storage/utils/cast.js).
      const ballots = fetched.relation('ballots');
      ballots.remove(ballots.getById(removed));
      await settle<[Row]>((o) => fetched.save(o));
      expect(await relatedIds(service, 'Ballot', 'Elector', voterId, 'ballots')).toEqual([kept]);
    },
  },
  {
    operation: 'Object.fetch',
    async drive({ client, service }) {
      const weaponId = await service.row('Weapon', { kind: 'axe' });
      const id = await service.row('FetchedPlayer', { name: 'ann', score: 7, weapon: pointer('Weapon', weaponId) });
      const Player = client.Object.extend('FetchedPlayer');
      const player = new Player();
      player.set('_id', id);
      const [fetched] = await settle<[Row]>((o) => player.fetch(o));
      expect(fetched).toBeInstanceOf(Player);
      expect([fetched.get('name'), fetched.get('score')]).toEqual(['ann', 7]);
      const weapon = fetched.get('weapon') as Row;
      expect([weapon.className, weapon.get('_id')]).toEqual(['Weapon', weaponId]);
    },
  },
  {
    operation: 'Object.destroy',
    async drive({ client, service }) {
      const id = await service.row('DestroyedPlayer', { name: 'ann' });
      const player = new (client.Object.extend('DestroyedPlayer'))();
      player.set('_id', id);
      await settle((o) => player.destroy(o));
      expect((await storedRow(service, 'DestroyedPlayer', id)).status, 'the destroyed row is still there').toBe(404);
    },
  },
  {
    operation: 'Query.find',
    async drive({ client, service }) {
      for (const score of [1, 2, 3, 4, 5]) await service.row('RankedPlayer', { name: `p${score}`, score });
      const Player = client.Object.extend('RankedPlayer');
      const query = new client.Query(Player);
      query.greaterThan('score', 2);
      query.descending('score');
      query.limit(2);
      const [rows] = await settle<[Row[]]>((o) => query.find(o));
      expect(rows.map((r) => r.get('score'))).toEqual([5, 4]);
      expect(rows.every((r) => r instanceof Player)).toBe(true);
    },
  },
  {
    operation: 'Query.count',
    async drive({ client, service }) {
      for (const team of ['red', 'red', 'red', 'blue']) await service.row('TeamPlayer', { team });
      const query = new client.Query(client.Object.extend('TeamPlayer'));
      query.equalTo('team', 'red');
      const [count] = await settle<[number]>((o) => query.count(o));
      expect(count).toBe(3);
    },
  },
  {
    operation: 'Query.get',
    async drive({ client, service }) {
      await service.row('LookedUpPlayer', { name: 'other' });
      const id = await service.row('LookedUpPlayer', { name: 'ann' });
      const query = new client.Query(client.Object.extend('LookedUpPlayer'));
      const [row] = await settle<[Row]>((o) => query.get(id, o));
      expect([row.get('_id'), row.get('name')]).toEqual([id, 'ann']);
    },
  },
];
