import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExpectationFailedError, createClient, memoryTokenStore } from '../src/index.js';
import { masterClient, optionsFor, rejection, startTestServer, userClient, type TestServer } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('leaderboards', () => {
  it('sends events and reads rank, top and around-me', async () => {
    const scores = [40, 90, 10, 70, 55];
    const players = [];
    for (const score of scores) {
      const player = await userClient(server);
      await player.leaderboards.sendEvent('match_end', { score, kills: 1, time: 60 });
      players.push({ player, score });
    }
    const byScore = [...players].sort((a, b) => b.score - a.score);

    for (const [index, { player, score }] of byScore.entries()) {
      expect(await player.leaderboards.rank('high-score')).toEqual({ rank: index + 1, scores: [score, 0, 0] });
    }

    const top = await players[0]!.player.leaderboards.top('high-score', 3);
    expect(top.message).toBe('OK');
    expect(top.usersProfile.map((p) => p.userBriefProfile.userName)).toEqual(
      byScore.slice(0, 3).map((p) => p.player.username),
    );
    expect(top.usersProfile.map((p) => p.scores[0])).toEqual(byScore.slice(0, 3).map((p) => p.score));

    const middle = byScore[2]!.player;
    const around = await middle.leaderboards.aroundMe('high-score', 2);
    const names = around.usersProfile.map((p) => p.userBriefProfile.userName);
    const ranking = byScore.map((p) => p.player.username);
    const start = ranking.indexOf(names[0]!);
    expect(names).toContain(middle.username);
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual(ranking.slice(start, start + names.length));
  });

  it('throws ExpectationFailedError for an unknown event or leaderboard', async () => {
    const tokenStore = memoryTokenStore();
    const player = await userClient(server, { tokenStore });
    expect(await rejection(player.leaderboards.sendEvent('no_such_event', { score: 1 }))).toMatchObject({
      status: 417,
      code: 800,
    });
    expect(await rejection(player.leaderboards.rank('no-such-board'))).toBeInstanceOf(ExpectationFailedError);
    const wrongGame = createClient(optionsFor(server, { gameId: 'other-game', tokenStore }));
    expect(await rejection(wrongGame.leaderboards.top('high-score', 3))).toMatchObject({ status: 417 });
  });

  // Last: it puts a top score on the board the other tests rank on.
  it('lets server-side code with the master token act for a player (userId)', async () => {
    const player = await userClient(server);
    const { userId } = await player.auth.me();
    const admin = await masterClient(server);
    await admin.leaderboards.sendEvent('match_end', { score: 1_000_000 }, { userId });
    expect(await admin.leaderboards.rank('high-score', { userId })).toEqual({ rank: 1, scores: [1_000_000, 0, 0] });
    expect(await player.leaderboards.rank('high-score')).toEqual({ rank: 1, scores: [1_000_000, 0, 0] });
    const around = await admin.leaderboards.aroundMe('high-score', 2, { userId });
    expect(around.usersProfile[0]!.userBriefProfile.userId).toBe(userId);
    await expect(admin.leaderboards.rank('high-score')).rejects.toBeInstanceOf(ExpectationFailedError);
  });
});
