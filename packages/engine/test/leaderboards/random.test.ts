import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitEvent } from '../../src/areas/leaderboards/events.js';
import { aroundMe, rankOf, top } from '../../src/areas/leaderboards/results.js';
import { createEngine, DEFAULT_CONFIG, resolveConfig, type Config, type ConfigInput } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';
import { player, userIds } from './support.js';

// Boards over every rule at once: each aggregation, both orders, 1 to 3 fields, fields of two events.
const GAME: Partial<ConfigInput> = {
  events: [
    { name: 'e', fields: ['a', 'b'] },
    { name: 'f', fields: ['c'] },
  ],
  leaderboards: [
    { id: 'best-a', fields: [{ event: 'e', field: 'a' }] },
    {
      id: 'sum-ab-asc',
      fields: [
        { event: 'e', field: 'a' },
        { event: 'e', field: 'b' },
      ],
      aggregation: 'sum',
      order: 'asc',
    },
    {
      id: 'last-bca',
      fields: [
        { event: 'e', field: 'b' },
        { event: 'f', field: 'c' },
        { event: 'e', field: 'a' },
      ],
      aggregation: 'last',
    },
    {
      id: 'best-ca-asc',
      fields: [
        { event: 'f', field: 'c' },
        { event: 'e', field: 'a' },
      ],
      order: 'asc',
    },
  ],
};

/** A seeded generator, so that a failure can be replayed from the seed in its message. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
  };
}

type Event = { eventName: string; fieldsAndValues: { fieldName: string; value: number }[] };

/** Random events of few distinct values, so that ties are common; sometimes a field is left out. */
function randomEvent(rng: ReturnType<typeof random>): Event {
  if (rng.chance(0.3)) return { eventName: 'f', fieldsAndValues: [{ fieldName: 'c', value: rng.int(-2, 3) }] };
  const fields = (['a', 'b'] as const).filter(() => rng.chance(0.7));
  return {
    eventName: 'e',
    fieldsAndValues: (fields.length ? fields : ['a']).map((fieldName) => ({ fieldName, value: rng.int(-3, 4) })),
  };
}

/** The rules written plainly: every standing kept in a list, sorted in full on every question. */
class BruteForce {
  readonly #boards = new Map<string, Map<string, { scores: number[]; reached: number }>>();
  #moment = 0;

  constructor(private readonly config: Config) {
    for (const board of config.leaderboards) this.#boards.set(board.id, new Map());
  }

  apply(userId: string, event: Event) {
    this.#moment++;
    for (const board of this.config.leaderboards) {
      const standings = this.#boards.get(board.id)!;
      const given = board.fields.map((f) =>
        f.event === event.eventName ? event.fieldsAndValues.find((v) => v.fieldName === f.field)?.value : undefined,
      );
      if (given.every((v) => v === undefined)) continue;
      const current = standings.get(userId);
      const old = current?.scores ?? [0, 0, 0];
      const next = old.map((s, i) =>
        given[i] === undefined ? s : board.aggregation === 'sum' ? s + given[i] : given[i],
      );
      const order = this.#compareScores(board.id, next, old);
      if (current && (order === 0 || (board.aggregation === 'best' && order > 0))) continue;
      standings.set(userId, { scores: next, reached: this.#moment });
    }
  }

  #compareScores(boardId: string, x: number[], y: number[]): number {
    const board = this.config.leaderboards.find((b) => b.id === boardId)!;
    for (let i = 0; i < board.fields.length; i++) {
      if (x[i] !== y[i]) return (x[i]! < y[i]! ? -1 : 1) * (board.order === 'desc' ? -1 : 1);
    }
    return 0;
  }

  /** [userId, scores] in rank order. */
  ranking(boardId: string): [string, number[]][] {
    return [...this.#boards.get(boardId)!]
      .sort(
        ([u, a], [v, b]) =>
          this.#compareScores(boardId, a.scores, b.scores) || a.reached - b.reached || (u < v ? -1 : 1),
      )
      .map(([userId, { scores }]) => [userId, scores]);
  }
}

const seed = Math.floor(Math.random() * 2 ** 31);

describe(`leaderboards against a brute-force ranking (seed ${seed})`, () => {
  it('agrees after thousands of random events, driving the core', () => {
    const rng = random(seed);
    const config = { ...DEFAULT_CONFIG, ...GAME };
    const { project } = createEngine({ config });
    const model = new BruteForce(resolveConfig(config));
    const users = Array.from({ length: 250 }, (_, i) => `user-${String(i).padStart(3, '0')}`);
    for (let n = 0; n < 6000; n++) {
      const userId = users[rng.int(0, users.length - 1)]!;
      const event = randomEvent(rng);
      submitEvent(project, userId, event);
      model.apply(userId, event);
    }
    for (const { id } of GAME.leaderboards!) {
      const expected = model.ranking(id);
      const listed = top(project, id, 100).usersProfile.map((p) => [p.userBriefProfile.userId, p.scores]);
      expect(listed, id).toEqual(expected.slice(0, 100));
      for (const userId of users) {
        const position = expected.findIndex(([u]) => u === userId);
        expect(rankOf(project, id, userId), `${id} ${userId}`).toEqual(
          position < 0 ? { rank: 0, scores: [0, 0, 0] } : { rank: position + 1, scores: expected[position]![1] },
        );
        const count = rng.int(1, 20);
        const around = aroundMe(project, id, userId, count).usersProfile.map((p) => p.userBriefProfile.userId);
        const window =
          position < 0
            ? []
            : expected.slice(Math.max(0, position - Math.floor(count / 2)), position + Math.ceil(count / 2) + 1);
        expect(around, `${id} ${userId} around ${count}`).toEqual(window.map(([u]) => u));
      }
    }
  });

  describe('over HTTP', () => {
    let server: TestServer;
    let users: TestUser[];
    beforeAll(async () => {
      server = await startTestServer(GAME);
      users = await Promise.all(Array.from({ length: 8 }, (_, i) => createUser(server, `rnd${i}`)));
    });
    afterAll(() => server.close());

    it('agrees after a thousand random events', async () => {
      const rng = random(seed + 1);
      const model = new BruteForce(resolveConfig({ ...DEFAULT_CONFIG, ...GAME }));
      for (let n = 0; n < 1000; n++) {
        const user = users[rng.int(0, users.length - 1)]!;
        const event = randomEvent(rng);
        const res = await player(server, user).post(event);
        expect(res.status).toBe(200);
        model.apply(user.userId, event);
      }
      for (const { id } of GAME.leaderboards!) {
        const expected = model.ranking(id);
        const client = player(server, users[0]!);
        const listed = await client.top(id, 100);
        expect(
          listed.usersProfile.map((p) => [p.userBriefProfile.userId, p.scores]),
          id,
        ).toEqual(expected);
        for (const user of users) {
          const position = expected.findIndex(([u]) => u === user.userId);
          expect((await player(server, user).rank(id)).rank, `${id} ${user.username}`).toBe(position + 1);
          const around = userIds(await player(server, user).aroundMe(id, 4));
          const window = position < 0 ? [] : expected.slice(Math.max(0, position - 2), position + 3);
          expect(around, `${id} ${user.username} around`).toEqual(window.map(([u]) => u));
        }
      }
    });
  });
});
