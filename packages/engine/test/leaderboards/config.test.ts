import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';
import { GAME, player, resetBoards, startGameServer, userIds } from './support.js';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
beforeAll(async () => {
  server = await startGameServer();
  [ann, bob] = await Promise.all([
    createUser(server, 'ann', { firstName: 'Ann' }),
    createUser(server, 'bob', { firstName: 'Bob' }),
  ]);
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.patchConfig({ events: GAME.events, leaderboards: GAME.leaderboards });
  await resetBoards(server);
});

const withBoard = (board: Record<string, unknown>, replacing?: string) => ({
  leaderboards: [...(GAME.leaderboards ?? []).filter((b) => b.id !== replacing), board],
});

describe('leaderboards follow the config changed at run time', () => {
  it('a leaderboard added at run time works at once', async () => {
    await server.patchConfig(withBoard({ id: 'most-kills', fields: [{ event: 'match_end', field: 'kills' }] }));
    const p = player(server, ann);
    await p.event('match_end', { kills: 7 });
    expect(await p.rank('most-kills')).toEqual({ rank: 1, scores: [7, 0, 0] });
  });

  it('a removed leaderboard is unknown (417), and comes back empty', async () => {
    const p = player(server, ann);
    await p.event('match_end', { time: 30 });
    await server.patchConfig({ leaderboards: (GAME.leaderboards ?? []).filter((b) => b.id !== 'fastest') });
    expect((await p.get('/game/leaderboards/fastest')).status).toBe(417);
    expect((await p.get('/game/leaderboards/top/fastest?count=3')).status).toBe(417);
    await server.patchConfig({ leaderboards: GAME.leaderboards });
    expect(await p.rank('fastest')).toEqual({ rank: 0, scores: [0, 0, 0] });
  });

  it('a removed event is unknown (417)', async () => {
    const boards = (GAME.leaderboards ?? []).filter((b) => !b.fields.some((f) => f.event === 'level_up'));
    await server.patchConfig({ events: GAME.events?.filter((e) => e.name !== 'level_up'), leaderboards: boards });
    const res = await player(server, ann).post({
      eventName: 'level_up',
      fieldsAndValues: [{ fieldName: 'level', value: 2 }],
    });
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: 800 });
  });

  it('a leaderboard whose order changes is ranked again, keeping its scores', async () => {
    await player(server, ann).event('match_end', { score: 10 });
    await player(server, bob).event('match_end', { score: 20 });
    await server.patchConfig(
      withBoard({ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }], order: 'asc' }, 'high-score'),
    );
    expect(await player(server, ann).rank('high-score')).toEqual({ rank: 1, scores: [10, 0, 0] });
    // `best` now keeps the lower score.
    await player(server, bob).event('match_end', { score: 5 });
    expect(await player(server, bob).rank('high-score')).toEqual({ rank: 1, scores: [5, 0, 0] });
  });

  it('a leaderboard whose aggregation changes keeps its scores and aggregates the new way', async () => {
    await player(server, ann).event('match_end', { score: 10 });
    await server.patchConfig(
      withBoard(
        { id: 'high-score', fields: [{ event: 'match_end', field: 'score' }], aggregation: 'sum' },
        'high-score',
      ),
    );
    await player(server, ann).event('match_end', { score: 5 });
    expect((await player(server, ann).rank('high-score')).scores).toEqual([15, 0, 0]);
  });

  it('a leaderboard whose fields change starts empty', async () => {
    await player(server, ann).event('match_end', { score: 10 });
    await server.patchConfig(
      withBoard({ id: 'high-score', fields: [{ event: 'match_end', field: 'kills' }] }, 'high-score'),
    );
    expect(await player(server, ann).rank('high-score')).toEqual({ rank: 0, scores: [0, 0, 0] });
  });
});

describe('PUT /__admin/leaderboards/{id}/reset', () => {
  it('empties one leaderboard and leaves the others', async () => {
    const p = player(server, ann);
    await p.event('match_end', { score: 10, kills: 2 });
    const res = await server.admin('/__admin/leaderboards/high-score/reset', { method: 'PUT' });
    expect(res.status).toBe(200);
    expect(await p.rank('high-score')).toEqual({ rank: 0, scores: [0, 0, 0] });
    expect((await p.rank('total-kills')).scores).toEqual([2, 0, 0]);
    await p.event('match_end', { score: 3 });
    expect(await p.rank('high-score')).toEqual({ rank: 1, scores: [3, 0, 0] });
  });

  it('answers 404 for an unknown leaderboard and 403 without the master key', async () => {
    const unknown = await server.admin('/__admin/leaderboards/nope/reset', { method: 'PUT' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 803 });
    expect((await server.request('/__admin/leaderboards/high-score/reset', { method: 'PUT' })).status).toBe(403);
  });
});

describe('leaderboards in the state export', () => {
  const exportState = async () =>
    (await server.admin('/__admin/state')).json() as Promise<{ areas: Record<string, unknown> }>;
  const importState = (state: unknown) =>
    server.admin('/__admin/state', { method: 'PUT', body: JSON.stringify(state) });

  it('round-trips exactly, rankings included', async () => {
    await player(server, ann).event('match_end', { score: 10, kills: 1, time: 40 });
    await player(server, bob).event('match_end', { score: 10, kills: 3, time: 20 });
    await player(server, bob).event('level_up', { level: 2 });
    const before = await exportState();
    const top = await player(server, ann).top('score-kills-time', 10);
    expect((await importState(before)).status).toBe(200);
    expect(await exportState()).toEqual(before);
    expect(await player(server, ann).top('score-kills-time', 10)).toEqual(top);
    expect((await player(server, ann).rank('high-score')).rank).toBe(1);
  });

  it('ranks equal scores reached at the same moment by the lower userId, and lists a vanished user with empty names', async () => {
    const state = await exportState();
    const ids = [bob.userId, 'gone-user', ann.userId];
    const standings = ids.map((userId) => ({ userId, scores: [50, 0, 0], reached: 7 }));
    const leaderboards = state.areas['leaderboards'] as {
      sequence: number;
      boards: { definition: { id: string }; standings: unknown[] }[];
    };
    leaderboards.boards.find((b) => b.definition.id === 'high-score')!.standings = standings;
    expect((await importState(state)).status).toBe(200);
    const top = await player(server, ann).top('high-score', 10);
    expect(userIds(top)).toEqual([...ids].sort());
    expect(top.usersProfile.find((p) => p.userBriefProfile.userId === 'gone-user')).toEqual({
      userBriefProfile: { userId: 'gone-user', userName: '', firstName: '', lastName: '' },
      scores: [50, 0, 0],
    });
  });

  it('refuses malformed standings (400) and keeps the state', async () => {
    await player(server, ann).event('match_end', { score: 10 });
    const state = await exportState();
    const broken = structuredClone(state);
    (broken.areas['leaderboards'] as { boards: { standings: unknown[] }[] }).boards[0]!.standings = [
      { userId: 'x', scores: [1] },
    ];
    expect((await importState(broken)).status).toBe(400);
    expect(await exportState()).toEqual(state);
  });
});
