// Bulk events and the reads beyond the spec (paged top, a player's leaderboards, listed players' scores), as the
// published Node client calls them (docs/published-clients.md).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import type { TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import {
  expectAnswer,
  gameRequest,
  player,
  resetBoards,
  startGameServer,
  userIds,
  type ProfileList,
} from './support.js';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
let cid: TestUser;
let master: Record<string, string>;
beforeAll(async () => {
  server = await startGameServer();
  [ann, bob, cid] = await Promise.all([
    createUser(server, 'ann'),
    createUser(server, 'bob'),
    createUser(server, 'cid'),
  ]);
  master = await masterAuth(server);
});
afterAll(() => server.close());
beforeEach(() => resetBoards(server));

const send = (method: string, path: string, auth: TestUser | Record<string, string>, body?: unknown) =>
  gameRequest(server, method, path, auth, body);

const item = (user: TestUser, eventName: string, fields: Record<string, unknown>) => ({
  userId: user.userId,
  eventName,
  fieldsAndValues: Object.entries(fields).map(([fieldName, value]) => ({ fieldName, value })),
});
const bulk = (items: unknown[], auth: TestUser | Record<string, string> = master) =>
  send('POST', '/game/events/bulk', auth, { eventBunchDataList: items });
/** Everything a player's own token reads of the game, to check that a refused request changed nothing. */
const standings = async () =>
  Promise.all(
    [ann, bob, cid].flatMap((user) => ['high-score', 'total-kills'].map((board) => player(server, user).rank(board))),
  );

describe('POST /game/events/bulk', () => {
  it("applies each item as the named player's event, in order", async () => {
    await expectAnswer(
      bulk([
        item(ann, 'match_end', { score: 10, kills: 1 }),
        item(bob, 'match_end', { score: 20 }),
        item(ann, 'match_end', { kills: 2 }),
      ]),
      200,
    );
    expect(await player(server, ann).rank('high-score')).toEqual({ rank: 2, scores: [10, 0, 0] });
    expect(await player(server, ann).rank('total-kills')).toEqual({ rank: 1, scores: [3, 0, 0] });
    expect(await player(server, bob).rank('high-score')).toEqual({ rank: 1, scores: [20, 0, 0] });
  });

  it('ranks equal scores of one bulk by their order in it (the earlier item reached them first)', async () => {
    await expectAnswer(bulk([item(bob, 'match_end', { score: 5 }), item(ann, 'match_end', { score: 5 })]), 200);
    expect(userIds(await player(server, ann).top('high-score', 5))).toEqual([bob.userId, ann.userId]);
  });

  it('accepts an empty list, changing nothing', async () => {
    await expectAnswer(bulk([]), 200);
    expect((await player(server, ann).top('high-score', 5)).usersProfile).toEqual([]);
  });

  it.each([
    ['no list', { eventBunchDataList: undefined }, 400, ErrorCode.VALIDATION_FAILED],
    ['an item that is not an object', { eventBunchDataList: ['x'] }, 400, ErrorCode.VALIDATION_FAILED],
    [
      'an item without userId',
      { eventBunchDataList: [{ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 1 }] }] },
      400,
      ErrorCode.VALIDATION_FAILED,
    ],
  ])('answers 400 to %s', async (_, body, status, code) => {
    await expectAnswer(send('POST', '/game/events/bulk', master, body), status, code);
  });

  it.each([
    [
      'an unknown user',
      () => ({ userId: 'nobody', eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 1 }] }),
      417,
      ErrorCode.USER_NOT_FOUND,
    ],
    ['an unknown event', () => item(bob, 'nope', { score: 1 }), 417, ErrorCode.UNKNOWN_EVENT],
    ['a value that is not a number', () => item(bob, 'match_end', { score: 'x' }), 417, ErrorCode.INVALID_EVENT_VALUE],
    [
      'a null eventName',
      () => ({ ...item(bob, 'match_end', { score: 1 }), eventName: null }),
      400,
      ErrorCode.VALIDATION_FAILED,
    ],
  ])(
    'refuses the whole bulk for %s in its last item, naming the item, and changes nothing',
    async (_, last, status, code) => {
      const before = await standings();
      const answer = await expectAnswer(bulk([item(ann, 'match_end', { score: 10, kills: 1 }), last()]), status, code);
      expect(answer['error']).toMatch(/^eventBunchDataList\[1\]: /);
      expect(await standings()).toEqual(before);
    },
  );

  it('puts back what earlier items changed when a later sum would overflow', async () => {
    await player(server, ann).event('match_end', { score: 3, kills: Number.MAX_VALUE });
    const before = await standings();
    await expectAnswer(
      bulk([
        item(bob, 'match_end', { score: 7, kills: 2 }),
        item(ann, 'match_end', { score: 9 }),
        item(ann, 'match_end', { kills: Number.MAX_VALUE }),
      ]),
      417,
      ErrorCode.INVALID_EVENT_VALUE,
    );
    expect(await standings()).toEqual(before);
    // The ranking is whole again: a new event ranks as if the bulk had never been sent.
    await player(server, cid).event('match_end', { score: 1 });
    expect(userIds(await player(server, ann).top('high-score', 5))).toEqual([ann.userId, cid.userId]);
  });

  it('is master only (403 for a user token, nothing changed)', async () => {
    await expectAnswer(bulk([item(ann, 'match_end', { score: 10 })], ann), 403, ErrorCode.OPERATION_FORBIDDEN);
    expect((await player(server, ann).top('high-score', 5)).usersProfile).toEqual([]);
  });
});

describe('GET /game/leaderboards/topPage/{id}', () => {
  const page = async (query: string, auth: TestUser | Record<string, string> = ann) =>
    (await expectAnswer(
      send('GET', `/game/leaderboards/topPage/high-score?${query}`, auth),
      200,
    )) as unknown as ProfileList;

  beforeEach(async () => {
    for (const [user, score] of [
      [ann, 30],
      [bob, 20],
      [cid, 10],
    ] as const)
      await player(server, user).event('match_end', { score });
  });

  it('pages the top list from page 0, count players a page, in the shape of top', async () => {
    const top = await player(server, ann).top('high-score', 10);
    expect(await page('page=0&count=2')).toEqual({ ...top, usersProfile: top.usersProfile.slice(0, 2) });
    expect(userIds(await page('page=1&count=2'))).toEqual([cid.userId]);
    expect(userIds(await page('page=2&count=2'))).toEqual([]);
  });

  it('defaults to page 0 and count 10; any token may read it', async () => {
    expect(userIds(await page('', master))).toEqual([ann.userId, bob.userId, cid.userId]);
  });

  it.each(['page=-1', 'count=0', 'count=101', 'page=x'])('answers 400 to %s', async (query) => {
    await expectAnswer(
      send('GET', `/game/leaderboards/topPage/high-score?${query}`, ann),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
  });

  it('answers 417 to an unknown leaderboard', async () => {
    await expectAnswer(send('GET', '/game/leaderboards/topPage/nope', ann), 417, ErrorCode.UNKNOWN_LEADERBOARD);
  });
});

describe('GET /game/leaderboards/myLeaderboards', () => {
  it('lists the leaderboards the player has a score on, in the order of the config, under the key the client reads', async () => {
    await player(server, ann).event('match_end', { score: 1, kills: 1 });
    await player(server, ann).event('level_up', { level: 2 });
    const mine = await expectAnswer(send('GET', '/game/leaderboards/myLeaderboards', ann), 200);
    expect(mine).toEqual({
      userLeaderbaordsId: ['high-score', 'total-kills', 'current-level', 'score-kills-time', 'level-then-score'],
    });
    expect(await expectAnswer(send('GET', '/game/leaderboards/myLeaderboards', bob), 200)).toEqual({
      userLeaderbaordsId: [],
    });
  });

  it('acts for ?userId= with the master token, and a user token only for itself (417, as rank)', async () => {
    await player(server, bob).event('level_up', { level: 2 });
    expect(
      await expectAnswer(send('GET', `/game/leaderboards/myLeaderboards?userId=${bob.userId}`, master), 200),
    ).toEqual({ userLeaderbaordsId: ['current-level', 'level-then-score'] });
    await expectAnswer(send('GET', '/game/leaderboards/myLeaderboards', master), 417, ErrorCode.OPERATION_FORBIDDEN);
    await expectAnswer(
      send('GET', `/game/leaderboards/myLeaderboards?userId=${bob.userId}`, ann),
      417,
      ErrorCode.OPERATION_FORBIDDEN,
    );
  });
});

describe('POST /game/leaderboards/usersScore/{id}', () => {
  const scores = (body: unknown, auth: TestUser | Record<string, string> = ann) =>
    send('POST', '/game/leaderboards/usersScore/high-score', auth, body);

  it('answers the rank and scores of each listed player, in the order asked, once each; rank 0 for no score', async () => {
    await player(server, ann).event('match_end', { score: 5 });
    await player(server, bob).event('match_end', { score: 9 });
    const answer = await expectAnswer(
      scores({ userIdList: [ann.userId, cid.userId, bob.userId, ann.userId, 'nobody'] }),
      200,
    );
    expect(answer).toEqual({
      leaderboardInfoList: [
        { userId: ann.userId, rank: 2, scores: [5, 0, 0] },
        { userId: cid.userId, rank: 0, scores: [0, 0, 0] },
        { userId: bob.userId, rank: 1, scores: [9, 0, 0] },
        { userId: 'nobody', rank: 0, scores: [0, 0, 0] },
      ],
    });
  });

  it('may be read by any token', async () => {
    expect(await expectAnswer(scores({ userIdList: [] }, master), 200)).toEqual({ leaderboardInfoList: [] });
  });

  it.each([[{}], [{ userIdList: 'ann' }], [{ userIdList: [1] }]])('answers 400 to %j', async (body) => {
    await expectAnswer(scores(body), 400, ErrorCode.VALIDATION_FAILED);
  });

  it('answers 417 to an unknown leaderboard', async () => {
    await expectAnswer(
      send('POST', '/game/leaderboards/usersScore/nope', ann, { userIdList: [] }),
      417,
      ErrorCode.UNKNOWN_LEADERBOARD,
    );
  });
});
