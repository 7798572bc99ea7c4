// The leaderboard administration beyond the spec (set scores, reset one, reset all, remove), as the published Node
// client calls it (docs/published-clients.md): master only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import type { TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { GAME, expectAnswer, gameRequest, player, resetBoards, startGameServer, userIds } from './support.js';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let master: Record<string, string>;
beforeAll(async () => {
  server = await startGameServer();
  [ann, bob] = await Promise.all([createUser(server, 'ann'), createUser(server, 'bob')]);
  master = await masterAuth(server);
});
afterAll(() => server.close());
beforeEach(async () => {
  // `remove` takes leaderboards out of the config: every test starts from the game's own.
  await server.patchConfig({ leaderboards: GAME.leaderboards });
  await resetBoards(server);
  await player(server, ann).event('match_end', { score: 30, kills: 3 });
  await player(server, bob).event('match_end', { score: 20, kills: 5 });
});

const send = (method: string, path: string, auth: TestUser | Record<string, string> = master, body?: unknown) =>
  gameRequest(server, method, path, auth, body);

/** What the players' own tokens read of the two leaderboards their events went to. */
const standings = () =>
  Promise.all(
    [ann, bob].flatMap((user) =>
      ['high-score', 'total-kills', 'score-kills-time'].map((board) => player(server, user).rank(board)),
    ),
  );

describe('PUT /game/leaderboards/{id}/scores', () => {
  const setScores = (body: unknown, board = 'high-score', auth: TestUser | Record<string, string> = master) =>
    send('PUT', `/game/leaderboards/${board}/scores`, auth, body);

  it('sets the scores as given, whatever the aggregation, and ranks them', async () => {
    expect(await expectAnswer(setScores({ userId: ann.userId, scores: [10, 0, 0] }), 200)).toEqual({ message: 'OK' });
    expect(await player(server, ann).rank('high-score')).toEqual({ rank: 2, scores: [10, 0, 0] });
    await expectAnswer(setScores({ userId: ann.userId, scores: [500, 400, 300] }, 'score-kills-time'), 200);
    expect(await player(server, ann).rank('score-kills-time')).toEqual({ rank: 1, scores: [500, 400, 300] });
  });

  it('puts a player without a score on the leaderboard; fills up short scores with 0', async () => {
    const cid = await createUser(server, 'cid');
    await expectAnswer(setScores({ userId: cid.userId, scores: [25] }), 200);
    expect(userIds(await player(server, cid).top('high-score', 5))).toEqual([ann.userId, cid.userId, bob.userId]);
  });

  it('ranks the player below others who reached equal scores before', async () => {
    await expectAnswer(setScores({ userId: ann.userId, scores: [20, 0, 0] }), 200);
    expect(userIds(await player(server, ann).top('high-score', 5))).toEqual([bob.userId, ann.userId]);
  });

  it.each([
    ['no userId', { userId: undefined, scores: [1, 0, 0] }],
    ['no scores', { scores: undefined }],
    ['four scores', { scores: [1, 0, 0, 0] }],
    ['no score at all', { scores: [] }],
    ['a score that is not a number', { scores: ['1', 0, 0] }],
    ["a score past the leaderboard's one field", { scores: [1, 2, 0] }],
  ])('answers 400 to %s and changes nothing', async (_, body) => {
    const before = await standings();
    await expectAnswer(setScores({ userId: ann.userId, ...body }), 400, ErrorCode.VALIDATION_FAILED);
    expect(await standings()).toEqual(before);
  });

  it('answers 417 to an unknown user or leaderboard', async () => {
    await expectAnswer(setScores({ userId: 'nobody', scores: [1, 0, 0] }), 417, ErrorCode.USER_NOT_FOUND);
    await expectAnswer(
      setScores({ userId: ann.userId, scores: [1, 0, 0] }, 'nope'),
      417,
      ErrorCode.UNKNOWN_LEADERBOARD,
    );
  });
});

describe('PUT /game/leaderboards/{id}/reset and PUT /game/leaderboards/reset', () => {
  it('empties one leaderboard and leaves the others', async () => {
    expect(await expectAnswer(send('PUT', '/game/leaderboards/high-score/reset'), 200)).toEqual({ message: 'OK' });
    expect((await player(server, ann).top('high-score', 5)).usersProfile).toEqual([]);
    expect(await player(server, ann).rank('total-kills')).toEqual({ rank: 2, scores: [3, 0, 0] });
    await player(server, bob).event('match_end', { score: 1 });
    expect(await player(server, bob).rank('high-score')).toEqual({ rank: 1, scores: [1, 0, 0] });
  });

  it('empties every leaderboard', async () => {
    expect(await expectAnswer(send('PUT', '/game/leaderboards/reset'), 200)).toEqual({ message: 'OK' });
    for (const { id } of GAME.leaderboards!)
      expect((await player(server, ann).top(id, 5)).usersProfile, id).toEqual([]);
  });

  it('answers 417 to an unknown leaderboard', async () => {
    await expectAnswer(send('PUT', '/game/leaderboards/nope/reset'), 417, ErrorCode.UNKNOWN_LEADERBOARD);
  });
});

describe('DELETE /game/leaderboards/{id}', () => {
  it('removes the leaderboard from the running config: it then answers as one that never existed', async () => {
    expect(await expectAnswer(send('DELETE', '/game/leaderboards/high-score'), 200)).toEqual({ message: 'OK' });
    await expectAnswer(send('GET', '/game/leaderboards/high-score', ann), 417, ErrorCode.UNKNOWN_LEADERBOARD);
    await expectAnswer(send('GET', '/game/leaderboards/top/high-score', ann), 417, ErrorCode.UNKNOWN_LEADERBOARD);
    await expectAnswer(send('DELETE', '/game/leaderboards/high-score'), 417, ErrorCode.UNKNOWN_LEADERBOARD);
    const config = (await (await server.admin('/__admin/config')).json()) as { leaderboards: { id: string }[] };
    expect(config.leaderboards.map((board) => board.id)).not.toContain('high-score');
    // Events still count on the leaderboards that remain.
    await player(server, ann).event('match_end', { kills: 1 });
    expect(await player(server, ann).rank('total-kills')).toEqual({ rank: 2, scores: [4, 0, 0] });
  });
});

describe('the administration is master only', () => {
  const calls: [string, string, unknown?][] = [
    ['PUT', '/game/leaderboards/high-score/scores', { userId: 'x', scores: [1, 0, 0] }],
    ['PUT', '/game/leaderboards/high-score/reset'],
    ['PUT', '/game/leaderboards/reset'],
    ['DELETE', '/game/leaderboards/high-score'],
  ];

  it.each(calls)('%s %s answers 403 to a user token and 401 to none, changing nothing', async (method, path, body) => {
    const before = await standings();
    await expectAnswer(
      send(method, path, ann, body === undefined ? undefined : { ...(body as object), userId: ann.userId }),
      403,
      ErrorCode.OPERATION_FORBIDDEN,
    );
    await expectAnswer(send(method, path, {}, body), 401, ErrorCode.INVALID_TOKEN);
    expect(await standings()).toEqual(before);
  });
});
