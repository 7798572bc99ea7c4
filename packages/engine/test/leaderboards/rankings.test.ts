import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';
import { player, resetBoards, startGameServer, userIds } from './support.js';

let server: TestServer;
/** 12 players, named p00..p11 (first name P0..P11, last name Player). */
let players: TestUser[];
beforeAll(async () => {
  server = await startGameServer();
  players = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      createUser(server, `p${String(i).padStart(2, '0')}`, { firstName: `P${i}`, lastName: 'Player' }),
    ),
  );
});
afterAll(() => server.close());
beforeEach(() => resetBoards(server));

const at = (i: number) => player(server, players[i]!);

/** Gives players[i] the score `scores[i]` on high-score, in order of i. */
async function scoreAll(scores: number[]) {
  for (const [i, score] of scores.entries()) await at(i).event('match_end', { score });
}

describe('GET /game/leaderboards/{id}: rank', () => {
  it('ranks from 1, best first', async () => {
    await scoreAll([10, 30, 20]);
    expect(await at(1).rank('high-score')).toEqual({ rank: 1, scores: [30, 0, 0] });
    expect(await at(2).rank('high-score')).toEqual({ rank: 2, scores: [20, 0, 0] });
    expect(await at(0).rank('high-score')).toEqual({ rank: 3, scores: [10, 0, 0] });
  });

  it('answers rank 0 and zero scores for a player with no score yet', async () => {
    await scoreAll([10]);
    expect(await at(5).rank('high-score')).toEqual({ rank: 0, scores: [0, 0, 0] });
  });

  it('ranks lower first on an ascending board', async () => {
    for (const [i, time] of [70, 50, 90].entries()) await at(i).event('match_end', { time });
    expect((await at(1).rank('fastest')).rank).toBe(1);
    expect((await at(0).rank('fastest')).rank).toBe(2);
    expect((await at(2).rank('fastest')).rank).toBe(3);
  });

  it('breaks ties by who reached the tied scores first', async () => {
    await scoreAll([50, 50, 50]);
    expect(userIds(await at(0).top('high-score', 3))).toEqual([0, 1, 2].map((i) => players[i]!.userId));
    // A worse score changes nothing, so p00 keeps having reached 50 first.
    await at(0).event('match_end', { score: 40 });
    expect((await at(0).rank('high-score')).rank).toBe(1);
    // p02 reaches 60 then everyone is compared on new scores: p01 reaches 60 later.
    await at(2).event('match_end', { score: 60 });
    await at(1).event('match_end', { score: 60 });
    expect(userIds(await at(0).top('high-score', 3))).toEqual([2, 1, 0].map((i) => players[i]!.userId));
  });

  it('on a sum board, a player who leaves and comes back to a tied total reached it later', async () => {
    await at(0).event('match_end', { kills: 3 });
    await at(1).event('match_end', { kills: 3 });
    await at(0).event('match_end', { kills: 0 });
    expect((await at(0).rank('total-kills')).rank).toBe(1);
    await at(0).event('match_end', { kills: 1 });
    await at(0).event('match_end', { kills: -1 });
    expect(await at(0).rank('total-kills')).toEqual({ rank: 2, scores: [3, 0, 0] });
    expect((await at(1).rank('total-kills')).rank).toBe(1);
  });

  it('ranks by the first field, then the second, then the third', async () => {
    const scores = [
      { score: 100, kills: 2, time: 50 },
      { score: 100, kills: 5, time: 10 },
      { score: 90, kills: 9, time: 99 },
      { score: 100, kills: 5, time: 20 },
    ];
    for (const [i, fields] of scores.entries()) await at(i).event('match_end', fields);
    const top = await at(0).top('score-kills-time', 10);
    expect(userIds(top)).toEqual([3, 1, 0, 2].map((i) => players[i]!.userId));
    expect(top.usersProfile.map((p) => p.scores)).toEqual([
      [100, 5, 20],
      [100, 5, 10],
      [100, 2, 50],
      [90, 9, 99],
    ]);
    expect(await at(1).rank('score-kills-time')).toEqual({ rank: 2, scores: [100, 5, 10] });
  });

  it('ranks by the order of fields at definition even across events', async () => {
    await at(0).event('match_end', { score: 999 });
    await at(1).event('level_up', { level: 2 });
    await at(2).event('level_up', { level: 2 });
    await at(2).event('match_end', { score: 5 });
    expect(userIds(await at(0).top('level-then-score', 10))).toEqual([2, 1, 0].map((i) => players[i]!.userId));
  });

  it('answers 417 for an unknown leaderboard', async () => {
    const res = await at(0).get('/game/leaderboards/no-such-board');
    expect(res.status).toBe(417);
    expect(await res.json()).toEqual({ code: 803, error: expect.any(String) });
  });
});

describe('GET /game/leaderboards/top/{id}', () => {
  it('lists the best n with their brief profiles and scores, and message OK', async () => {
    await scoreAll([10, 30, 20, 5]);
    const top = await at(0).top('high-score', 2);
    expect(top).toEqual({
      message: 'OK',
      usersProfile: [
        {
          userBriefProfile: { firstName: 'P1', lastName: 'Player', userName: 'p01', userId: players[1]!.userId },
          scores: [30, 0, 0],
        },
        {
          userBriefProfile: { firstName: 'P2', lastName: 'Player', userName: 'p02', userId: players[2]!.userId },
          scores: [20, 0, 0],
        },
      ],
    });
  });

  it('lists everyone when fewer players than n have a score, and nobody on an empty board', async () => {
    await scoreAll([10, 30]);
    expect(userIds(await at(0).top('high-score', 100))).toEqual([players[1]!.userId, players[0]!.userId]);
    expect(await at(0).top('fastest', 5)).toEqual({ usersProfile: [], message: 'OK' });
  });

  it('takes count from 1 to 100 and answers 400 otherwise', async () => {
    await scoreAll([10]);
    for (const count of ['0', '101', '-1', '2.5', 'ten']) {
      const res = await at(0).get(`/game/leaderboards/top/high-score?count=${count}`);
      expect(res.status, count).toBe(400);
      expect(await res.json()).toMatchObject({ code: 142 });
    }
    expect(userIds(await at(0).top('high-score', 1))).toHaveLength(1);
  });

  it('answers 417 for an unknown leaderboard', async () => {
    const res = await at(0).get('/game/leaderboards/top/no-such-board?count=3');
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: 803 });
  });
});

describe('GET /game/leaderboards/around-me/{id}', () => {
  // p00 scores 120, p01 110, ... p11 10: rank i+1 is players[i].
  const ranked = () => scoreAll(players.map((_, i) => 120 - 10 * i));
  const ids = (from: number, to: number) => players.slice(from, to + 1).map((p) => p.userId);

  it('with 10: five above, the caller, five below, in rank order', async () => {
    await ranked();
    const list = await at(6).aroundMe('high-score', 10);
    expect(userIds(list)).toEqual(ids(1, 11));
    expect(list.usersProfile[5]).toEqual({
      userBriefProfile: { firstName: 'P6', lastName: 'Player', userName: 'p06', userId: players[6]!.userId },
      scores: [60, 0, 0],
    });
    expect(list.message).toBe('OK');
  });

  it('with an odd count: ⌊n/2⌋ above and ⌈n/2⌉ below', async () => {
    await ranked();
    expect(userIds(await at(6).aroundMe('high-score', 5))).toEqual(ids(4, 9));
    expect(userIds(await at(6).aroundMe('high-score', 1))).toEqual(ids(6, 7));
  });

  it('for the first player: nobody above', async () => {
    await ranked();
    expect(userIds(await at(0).aroundMe('high-score', 10))).toEqual(ids(0, 5));
  });

  it('for the last player: nobody below', async () => {
    await ranked();
    expect(userIds(await at(11).aroundMe('high-score', 10))).toEqual(ids(6, 11));
  });

  it('near the edges: as many as there are', async () => {
    await ranked();
    expect(userIds(await at(2).aroundMe('high-score', 10))).toEqual(ids(0, 7));
    expect(userIds(await at(9).aroundMe('high-score', 20))).toEqual(ids(0, 11));
  });

  it('is empty for a caller with no score', async () => {
    await scoreAll([10, 20]);
    expect(await at(7).aroundMe('high-score', 10)).toEqual({ usersProfile: [], message: 'OK' });
  });

  it('takes count from 1 to 20 and answers 400 otherwise', async () => {
    await scoreAll([10]);
    for (const count of ['0', '21', 'x']) {
      const res = await at(0).get(`/game/leaderboards/around-me/high-score?count=${count}`);
      expect(res.status, count).toBe(400);
    }
    expect(userIds(await at(0).aroundMe('high-score', 20))).toEqual([players[0]!.userId]);
  });

  it('answers 417 for an unknown leaderboard', async () => {
    const res = await at(0).get('/game/leaderboards/around-me/no-such-board?count=3');
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: 803 });
  });
});
