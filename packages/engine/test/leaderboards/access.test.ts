import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { player, startGameServer } from './support.js';

let server: TestServer;
let ann: TestUser;
beforeAll(async () => {
  server = await startGameServer();
  ann = await createUser(server, 'ann');
  await player(server, ann).event('match_end', { score: 10 });
});
afterAll(() => server.close());

const EVENT = JSON.stringify({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 1 }] });

/** The four operations of openapi/areas/leaderboards.yaml that the service's interface lists, each with the given headers. */
const operations = (headers: Record<string, string>) => ({
  event: () =>
    server.request('/game/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: EVENT,
    }),
  rank: () => server.request('/game/leaderboards/high-score', { headers }),
  top: () => server.request('/game/leaderboards/top/high-score?count=3', { headers }),
  aroundMe: () => server.request('/game/leaderboards/around-me/high-score?count=3', { headers }),
});

async function expectAll(headers: Record<string, string>, status: number, code: number) {
  for (const [name, send] of Object.entries(operations(headers))) {
    const res = await send();
    expect(res.status, name).toBe(status);
    expect(await res.json(), name).toEqual({ code, error: expect.any(String) });
  }
}

describe('leaderboards: the status rows of docs/errors.md', () => {
  it('answers 417 for a wrong or missing game id', async () => {
    await expectAll({ 'X-Service-Game-Id': 'other-game', ...ann.auth }, 417, 210);
    await expectAll(ann.auth, 417, 210);
  });

  it('answers 401 without a valid user token', async () => {
    const game = { 'X-Service-Game-Id': server.config.gameId };
    await expectAll(game, 401, 209);
    await expectAll({ ...game, Authorization: 'Bearer not-a-token' }, 401, 209);
    await expectAll({ ...game, Authorization: ann.accessToken }, 401, 209);
  });

  it('answers 417 while the service is disabled, before looking at anything else', async () => {
    const patch = (leaderboards: boolean) => server.patchConfig({ services: { leaderboards } });
    await patch(false);
    try {
      await expectAll({ 'X-Service-Game-Id': server.config.gameId, ...ann.auth }, 417, 3);
      await expectAll({ 'X-Service-Game-Id': 'other-game' }, 417, 3);
    } finally {
      await patch(true);
    }
    expect((await operations({ 'X-Service-Game-Id': server.config.gameId, ...ann.auth }).rank()).status).toBe(200);
  });

  it('lets a master token read the top players, and answers 417 where the operation is about the caller', async () => {
    const master = { 'X-Service-Game-Id': server.config.gameId, ...(await masterAuth(server)) };
    const ops = operations(master);
    const top = await ops.top();
    expect(top.status).toBe(200);
    expect(await top.json()).toMatchObject({
      usersProfile: [{ userBriefProfile: { userId: ann.userId } }],
      message: 'OK',
    });
    for (const send of [ops.event, ops.rank, ops.aroundMe]) {
      const res = await send();
      expect(res.status).toBe(417);
      expect(await res.json()).toEqual({ code: 119, error: expect.any(String) });
    }
  });

  it('lets a master token act for a player named with ?userId= (server-side code, the published clients)', async () => {
    const master = { 'X-Service-Game-Id': server.config.gameId, ...(await masterAuth(server)) };
    const bob = await createUser(server, 'bob');
    const asBob = `userId=${encodeURIComponent(bob.userId)}`;
    const event = await server.request(`/game/events?${asBob}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...master },
      body: EVENT,
    });
    expect(event.status).toBe(200);
    const rank = await server.request(`/game/leaderboards/high-score?${asBob}`, { headers: master });
    expect(await rank.json()).toEqual({ rank: 2, scores: [1, 0, 0] });
    const around = await server.request(`/game/leaderboards/around-me/high-score?count=2&${asBob}`, {
      headers: master,
    });
    expect(
      ((await around.json()) as { usersProfile: { userBriefProfile: { userId: string } }[] }).usersProfile.map(
        (p) => p.userBriefProfile.userId,
      ),
    ).toContain(bob.userId);
    const unknown = await server.request('/game/leaderboards/high-score?userId=nobody', { headers: master });
    expect([unknown.status, ((await unknown.json()) as { code: number }).code]).toEqual([417, 214]);
  });

  it('lets a user token act only for its own user', async () => {
    const headers = { 'X-Service-Game-Id': server.config.gameId, ...ann.auth };
    expect((await server.request(`/game/leaderboards/high-score?userId=${ann.userId}`, { headers })).status).toBe(200);
    const other = await server.request('/game/leaderboards/high-score?userId=someone-else', { headers });
    expect([other.status, ((await other.json()) as { code: number }).code]).toEqual([417, 119]);
  });

  it('answers 200 to a user with the game id and a token', async () => {
    for (const [name, send] of Object.entries(operations({ 'X-Service-Game-Id': server.config.gameId, ...ann.auth }))) {
      expect((await send()).status, name).toBe(200);
    }
  });
});
