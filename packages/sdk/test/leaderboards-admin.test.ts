// The leaderboard helpers beyond the spec (the service's published Node client calls these operations).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExpectationFailedError, ForbiddenError, type Client } from '../src/index.js';
import { masterClient, rejection, startTestServer, userClient, type TestServer } from './support.js';

const GAME = {
  events: [{ name: 'match_end', fields: ['score', 'kills'] }],
  leaderboards: [
    { id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] },
    { id: 'total-kills', fields: [{ event: 'match_end', field: 'kills' }], aggregation: 'sum' as const },
  ],
};

let server: TestServer;
let admin: Client;
/** Players by name, with their userIds. */
const players: Record<string, Client & { username: string; userId: string }> = {};
beforeAll(async () => {
  server = await startTestServer(GAME);
  admin = await masterClient(server);
  for (const name of ['ann', 'bob', 'cid', 'dan', 'eve']) {
    const client = await userClient(server);
    players[name] = Object.assign(client, { userId: (await client.auth.me()).userId });
  }
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.admin('/__admin/config', {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(GAME),
  });
  await admin.leaderboards.resetAll();
});

const id = (name: string) => players[name]!.userId;
const names = (userIds: string[]) => userIds.map((userId) => Object.keys(players).find((name) => id(name) === userId));

describe('bulk events and the reads', () => {
  beforeEach(() =>
    admin.leaderboards.sendEvents([
      { userId: id('ann'), eventName: 'match_end', fields: { score: 50, kills: 1 } },
      { userId: id('bob'), eventName: 'match_end', fields: { score: 40 } },
      { userId: id('cid'), eventName: 'match_end', fields: { score: 30 } },
      { userId: id('dan'), eventName: 'match_end', fields: { score: 20 } },
      { userId: id('eve'), eventName: 'match_end', fields: { score: 10 } },
    ]),
  );

  it("sends several players' events at once", async () => {
    expect(await players['ann']!.leaderboards.rank('total-kills')).toEqual({ rank: 1, scores: [1, 0, 0] });
    expect(await players['eve']!.leaderboards.rank('high-score')).toEqual({ rank: 5, scores: [10, 0, 0] });
  });

  it('reads the ranking page by page, and whole through the iterator', async () => {
    const page = await players['ann']!.leaderboards.topPage('high-score', 1, 2);
    expect(names(page.usersProfile.map((p) => p.userBriefProfile.userId))).toEqual(['cid', 'dan']);
    const all = [];
    for await (const player of players['ann']!.leaderboards.ranking('high-score', { pageSize: 2 }))
      all.push(player.userBriefProfile.userId);
    expect(names(all)).toEqual(['ann', 'bob', 'cid', 'dan', 'eve']);
  });

  it("reads listed players' scores and a player's leaderboards", async () => {
    const scores = await players['bob']!.leaderboards.usersScores('high-score', [id('eve'), id('ann')]);
    expect(scores).toEqual([
      { userId: id('eve'), rank: 5, scores: [10, 0, 0] },
      { userId: id('ann'), rank: 1, scores: [50, 0, 0] },
    ]);
    expect(await players['ann']!.leaderboards.myLeaderboards()).toEqual(['high-score', 'total-kills']);
    expect(await admin.leaderboards.myLeaderboards({ userId: id('bob') })).toEqual(['high-score']);
  });
});

describe('administration', () => {
  it('sets scores, resets one leaderboard or all, removes one', async () => {
    await admin.leaderboards.setScores('high-score', id('cid'), [99]);
    expect(await players['cid']!.leaderboards.rank('high-score')).toEqual({ rank: 1, scores: [99, 0, 0] });
    await admin.leaderboards.sendEvents([{ userId: id('cid'), eventName: 'match_end', fields: { kills: 3 } }]);
    await admin.leaderboards.reset('high-score');
    expect((await players['cid']!.leaderboards.top('high-score', 5)).usersProfile).toEqual([]);
    expect(await players['cid']!.leaderboards.rank('total-kills')).toEqual({ rank: 1, scores: [3, 0, 0] });
    await admin.leaderboards.resetAll();
    expect((await players['cid']!.leaderboards.top('total-kills', 5)).usersProfile).toEqual([]);
    await admin.leaderboards.remove('total-kills');
    expect(await rejection(players['cid']!.leaderboards.rank('total-kills'))).toBeInstanceOf(ExpectationFailedError);
  });

  it('refuses a user token, changing nothing', async () => {
    const ann = players['ann']!;
    await ann.leaderboards.sendEvent('match_end', { score: 5 });
    for (const refused of [
      () => ann.leaderboards.sendEvents([{ userId: ann.userId, eventName: 'match_end', fields: { score: 500 } }]),
      () => ann.leaderboards.setScores('high-score', ann.userId, [500]),
      () => ann.leaderboards.reset('high-score'),
      () => ann.leaderboards.resetAll(),
      () => ann.leaderboards.remove('high-score'),
    ]) {
      expect(await rejection(refused())).toBeInstanceOf(ForbiddenError);
    }
    expect(await ann.leaderboards.rank('high-score')).toEqual({ rank: 1, scores: [5, 0, 0] });
  });
});
