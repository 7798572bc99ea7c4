import { expect } from 'vitest';
import type { ConfigInput } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import type { TestUser } from '../support/users.js';

/** The game of these tests: one leaderboard per rule (aggregation, order, several fields, fields of two events). */
export const GAME: Partial<ConfigInput> = {
  events: [
    { name: 'match_end', fields: ['score', 'kills', 'time'] },
    { name: 'level_up', fields: ['level'] },
  ],
  leaderboards: [
    { id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] },
    { id: 'total-kills', fields: [{ event: 'match_end', field: 'kills' }], aggregation: 'sum' },
    { id: 'current-level', fields: [{ event: 'level_up', field: 'level' }], aggregation: 'last' },
    { id: 'fastest', fields: [{ event: 'match_end', field: 'time' }], order: 'asc' },
    {
      id: 'score-kills-time',
      fields: [
        { event: 'match_end', field: 'score' },
        { event: 'match_end', field: 'kills' },
        { event: 'match_end', field: 'time' },
      ],
    },
    {
      id: 'level-then-score',
      fields: [
        { event: 'level_up', field: 'level' },
        { event: 'match_end', field: 'score' },
      ],
    },
  ],
};

export function startGameServer(overrides: Partial<ConfigInput> = {}): Promise<TestServer> {
  return startTestServer({ ...GAME, ...overrides });
}

/** Headers of a leaderboard request by `user` (or with `auth` headers such as a master token). */
export function gameHeaders(server: TestServer, auth: TestUser | Record<string, string>): Record<string, string> {
  const authorization = 'auth' in auth ? (auth.auth as Record<string, string>) : (auth as Record<string, string>);
  return { 'X-Service-Game-Id': server.config.gameId, 'Content-Type': 'application/json', ...authorization };
}

export interface Scored {
  rank: number;
  scores: number[];
}

export interface ProfileList {
  usersProfile: {
    userBriefProfile: { firstName: string; lastName: string; userName: string; userId: string };
    scores: number[];
  }[];
  message: string;
}

/** A game client for one user: raw responses (`post`, `get`) and checked shortcuts. */
export function player(server: TestServer, user: TestUser | Record<string, string>) {
  const post = (body: unknown) =>
    server.request('/game/events', { method: 'POST', headers: gameHeaders(server, user), body: JSON.stringify(body) });
  const get = (path: string) => server.request(path, { headers: gameHeaders(server, user) });
  async function json<T>(res: Promise<Response>): Promise<T> {
    const response = await res;
    const body = (await response.json()) as T;
    if (response.status !== 200) throw new Error(`${response.status} ${JSON.stringify(body)}`);
    return body;
  }
  return {
    post,
    get,
    /** Sends an event; `fields` as `{score: 10}`. */
    event: (eventName: string, fields: Record<string, number>) =>
      json<unknown>(
        post({
          eventName,
          fieldsAndValues: Object.entries(fields).map(([fieldName, value]) => ({ fieldName, value })),
        }),
      ),
    rank: (board: string) => json<Scored>(get(`/game/leaderboards/${board}`)),
    top: (board: string, count: number) => json<ProfileList>(get(`/game/leaderboards/top/${board}?count=${count}`)),
    aroundMe: (board: string, count: number) =>
      json<ProfileList>(get(`/game/leaderboards/around-me/${board}?count=${count}`)),
  };
}

/** Empties every leaderboard of the game through the admin API. */
export async function resetBoards(server: TestServer): Promise<void> {
  for (const { id } of GAME.leaderboards ?? []) {
    const res = await server.admin(`/__admin/leaderboards/${id}/reset`, { method: 'PUT' });
    if (res.status !== 200) throw new Error(`reset of ${id} failed: ${res.status}`);
  }
}

/** The userIds of a profile list, in its order. */
export const userIds = (list: ProfileList) => list.usersProfile.map((p) => p.userBriefProfile.userId);

/** A leaderboard request by `auth` (a user or headers such as a master token), with a JSON body when given. */
export function gameRequest(
  server: TestServer,
  method: string,
  path: string,
  auth: TestUser | Record<string, string>,
  body?: unknown,
): Promise<Response> {
  return server.request(path, {
    method,
    headers: gameHeaders(server, auth),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** Asserts the status and, for errors, the `{code, error}` shape with this code; returns the body. */
export async function expectAnswer(
  res: Promise<Response>,
  status: number,
  code?: number,
): Promise<Record<string, unknown>> {
  const response = await res;
  const body = (await response.json()) as Record<string, unknown>;
  expect({ status: response.status, body }).toMatchObject({ status });
  if (code !== undefined) expect(body).toEqual({ code, error: expect.any(String) });
  return body;
}
