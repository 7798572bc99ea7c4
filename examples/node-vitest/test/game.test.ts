import { createHandlers } from '@basekit/msw';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createGame } from '../src/game.js';

const baseUrl = 'https://api.example.test';
const keys = {
  authenticationId: 'dev-auth-id',
  clientKey: 'dev-client-key',
  objectStorageId: 'dev-db',
  gameId: 'dev-game',
};

// The backend every test starts from: two players, one of them with a score.
const backend = createHandlers({
  baseUrl,
  seed: {
    users: [
      { username: 'ann', password: 'ann-password', userId: 'ann-id' },
      { username: 'bob', password: 'bob-password' },
    ],
    scores: [{ username: 'bob', event: 'match_end', values: { score: 100 } }],
  },
});
const server = setupServer(...backend);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  server.resetHandlers();
  await backend.reset();
});
afterAll(() => server.close());

async function signedIn(username: string) {
  const game = createGame({ baseUrl, ...keys });
  await game.signIn(username, `${username}-password`);
  return game;
}

it('ranks a finished match among the seeded players', async () => {
  const ann = await signedIn('ann');
  expect(await ann.finishMatch(80)).toBe(2);
  expect(await ann.finishMatch(120)).toBe(1);
  expect(await ann.topPlayers()).toEqual(['ann 120', 'bob 100']);
});

it('starts each test from the seed', async () => {
  const ann = await signedIn('ann');
  // The scores of the test before are gone.
  expect(await ann.topPlayers()).toEqual(['bob 100']);
  await ann.addNote('draft');
  await backend.reset();
  expect(await backend.rows('Note')).toEqual([]);
});

it('reads notes a test seeded, and keeps them private', async () => {
  await backend.seed({
    tables: {
      Note: [
        {
          _id: 'n1',
          title: 'older',
          owner: 'ann-id',
          createdAt: '2024-01-01T00:00:00.000Z',
          ACL: { 'ann-id': { read: true, write: true } },
        },
        {
          _id: 'n2',
          title: 'newer',
          owner: 'ann-id',
          createdAt: '2024-02-01T00:00:00.000Z',
          ACL: { 'ann-id': { read: true, write: true } },
        },
      ],
    },
  });
  const ann = await signedIn('ann');
  await ann.addNote('newest');
  expect(await ann.notes()).toEqual(['newest', 'newer', 'older']);
  expect(await (await signedIn('bob')).notes()).toEqual([]);
});

it('keeps the player signed in after the access token expires', async () => {
  const ann = await signedIn('ann');
  await backend.clock.advance(3 * 3600);
  // The SDK renews the token with the refresh token; the app does not notice.
  expect(await ann.finishMatch(50)).toBe(2);
});

it('tells the player when the service refuses a score (one operation overridden)', async () => {
  server.use(
    http.post(`${baseUrl}/game/events`, () =>
      HttpResponse.json({ code: 3, error: 'the leaderboards service is disabled' }, { status: 503 }),
    ),
  );
  const ann = await signedIn('ann');
  expect(await ann.finishMatch(50)).toBe('Your score was not recorded: the leaderboards service is disabled');
});
