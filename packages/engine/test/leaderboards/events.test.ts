import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';
import { gameHeaders, player, resetBoards, startGameServer } from './support.js';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
beforeAll(async () => {
  server = await startGameServer();
  [ann, bob] = await Promise.all([createUser(server, 'ann'), createUser(server, 'bob')]);
});
afterAll(() => server.close());
beforeEach(() => resetBoards(server));

describe('POST /game/events: validation', () => {
  const expectError = async (res: Promise<Response>, status: number, code: number) => {
    const response = await res;
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ code, error: expect.any(String) });
  };

  it('answers 400 when eventName is null or missing', async () => {
    const { post } = player(server, ann);
    await expectError(post({ eventName: null, fieldsAndValues: [{ fieldName: 'score', value: 1 }] }), 400, 142);
    await expectError(post({ fieldsAndValues: [{ fieldName: 'score', value: 1 }] }), 400, 142);
  });

  it('answers 400 when a fieldName is null or missing, or the list is not a list', async () => {
    const { post } = player(server, ann);
    await expectError(
      post({
        eventName: 'match_end',
        fieldsAndValues: [
          { fieldName: 'score', value: 1 },
          { fieldName: null, value: 2 },
        ],
      }),
      400,
      142,
    );
    await expectError(post({ eventName: 'match_end', fieldsAndValues: [{ value: 2 }] }), 400, 142);
    await expectError(post({ eventName: 'match_end', fieldsAndValues: ['score'] }), 400, 142);
    await expectError(post({ eventName: 'match_end' }), 400, 142);
    await expectError(post({ eventName: 'match_end', fieldsAndValues: { score: 1 } }), 400, 142);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const { post } = player(server, ann);
    await expectError(
      server.request('/game/events', { method: 'POST', headers: gameHeaders(server, ann), body: '{"eventName":' }),
      400,
      107,
    );
    await expectError(post([]), 400, 107);
  });

  it('answers 417 for an unknown event, an unknown field, a non-numeric value, a repeated field or no values', async () => {
    const { post } = player(server, ann);
    await expectError(
      post({ eventName: 'no_such_event', fieldsAndValues: [{ fieldName: 'score', value: 1 }] }),
      417,
      800,
    );
    await expectError(post({ eventName: 'level_up', fieldsAndValues: [{ fieldName: 'score', value: 1 }] }), 417, 801);
    for (const value of ['12', null, true, [1], { n: 1 }, undefined]) {
      await expectError(post({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value }] }), 417, 802);
    }
    await expectError(
      post({
        eventName: 'match_end',
        fieldsAndValues: [
          { fieldName: 'score', value: 1 },
          { fieldName: 'score', value: 2 },
        ],
      }),
      417,
      802,
    );
    await expectError(post({ eventName: 'match_end', fieldsAndValues: [] }), 417, 802);
  });

  it('changes nothing when any part of the event is refused', async () => {
    const p = player(server, ann);
    const res = await p.post({
      eventName: 'match_end',
      fieldsAndValues: [
        { fieldName: 'score', value: 50 },
        { fieldName: 'kills', value: 'x' },
      ],
    });
    expect(res.status).toBe(417);
    expect(await p.rank('high-score')).toEqual({ rank: 0, scores: [0, 0, 0] });
    expect(await p.rank('total-kills')).toEqual({ rank: 0, scores: [0, 0, 0] });
  });

  it('refuses a sum that would overflow, on every board of the event', async () => {
    const p = player(server, ann);
    await p.event('match_end', { score: 5, kills: 1e308 });
    const res = await p.post({
      eventName: 'match_end',
      fieldsAndValues: [
        { fieldName: 'score', value: 9 },
        { fieldName: 'kills', value: 1e308 },
      ],
    });
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: 802 });
    expect((await p.rank('total-kills')).scores).toEqual([1e308, 0, 0]);
    expect((await p.rank('high-score')).scores).toEqual([5, 0, 0]);
  });

  it('accepts a valid event with 200 and an OK message', async () => {
    const res = await player(server, ann).post({
      eventName: 'match_end',
      fieldsAndValues: [{ fieldName: 'score', value: 12.5 }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'OK' });
  });
});

describe('POST /game/events: aggregation', () => {
  it('best keeps the better value by the board order (higher for desc, lower for asc)', async () => {
    const p = player(server, ann);
    for (const [score, time] of [
      [10, 90],
      [30, 120],
      [20, 60],
    ]) {
      await p.event('match_end', { score: score!, time: time! });
    }
    expect(await p.rank('high-score')).toEqual({ rank: 1, scores: [30, 0, 0] });
    expect(await p.rank('fastest')).toEqual({ rank: 1, scores: [60, 0, 0] });
  });

  it('best takes a first score even when it is below zero', async () => {
    const p = player(server, ann);
    await p.event('match_end', { score: -5 });
    expect(await p.rank('high-score')).toEqual({ rank: 1, scores: [-5, 0, 0] });
  });

  it('sum adds', async () => {
    const p = player(server, ann);
    for (const kills of [3, 4, -2, 0.5]) await p.event('match_end', { kills });
    expect(await p.rank('total-kills')).toEqual({ rank: 1, scores: [5.5, 0, 0] });
  });

  it('last replaces, whether better or worse', async () => {
    const p = player(server, ann);
    for (const level of [3, 7, 2]) await p.event('level_up', { level });
    expect(await p.rank('current-level')).toEqual({ rank: 1, scores: [2, 0, 0] });
  });

  it('updates every leaderboard defined on the fields the event carries, and only those', async () => {
    const p = player(server, ann);
    await p.event('match_end', { score: 40, kills: 2 });
    expect((await p.rank('high-score')).scores).toEqual([40, 0, 0]);
    expect((await p.rank('total-kills')).scores).toEqual([2, 0, 0]);
    expect((await p.rank('score-kills-time')).scores).toEqual([40, 2, 0]);
    expect((await p.rank('level-then-score')).scores).toEqual([0, 40, 0]);
    // No time, no level: those boards have no score for the player.
    expect(await p.rank('fastest')).toEqual({ rank: 0, scores: [0, 0, 0] });
    expect(await p.rank('current-level')).toEqual({ rank: 0, scores: [0, 0, 0] });
  });

  it('best over several fields keeps the better whole set of scores, not the best of each field', async () => {
    const p = player(server, ann);
    await p.event('match_end', { score: 100, kills: 2, time: 50 });
    await p.event('match_end', { score: 90, kills: 9, time: 99 });
    expect((await p.rank('score-kills-time')).scores).toEqual([100, 2, 50]);
    await p.event('match_end', { score: 100, kills: 3, time: 10 });
    expect((await p.rank('score-kills-time')).scores).toEqual([100, 3, 10]);
  });

  it('fields of two events: each event sets its own field and the others keep theirs', async () => {
    const p = player(server, ann);
    await p.event('level_up', { level: 4 });
    await p.event('match_end', { score: 70 });
    expect((await p.rank('level-then-score')).scores).toEqual([4, 70, 0]);
    await p.event('match_end', { score: 20 });
    await p.event('level_up', { level: 3 });
    expect((await p.rank('level-then-score')).scores).toEqual([4, 70, 0]);
    await p.event('level_up', { level: 5 });
    expect((await p.rank('level-then-score')).scores).toEqual([5, 70, 0]);
  });

  it('each player has their own scores', async () => {
    await player(server, ann).event('match_end', { kills: 4 });
    await player(server, bob).event('match_end', { kills: 1 });
    expect((await player(server, ann).rank('total-kills')).scores).toEqual([4, 0, 0]);
    expect((await player(server, bob).rank('total-kills')).scores).toEqual([1, 0, 0]);
  });
});
