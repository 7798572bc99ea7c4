// The game module against a real reference server, in a project of this file's own.
import { createClient } from '@basekit/sdk';
import { beforeEach, expect, it } from 'vitest';
import { createGame } from '../../src/game.js';
import { useTestProject } from './project.js';

const project = useTestProject();

/** Registers a player in this file's project and signs the game in as them. */
async function player(username: string) {
  await createClient(project().clientOptions).auth.register({ username, password: `${username}-password` });
  const game = createGame(project().clientOptions);
  await game.signIn(username, `${username}-password`);
  return game;
}

beforeEach(() => project().reset());

it('ranks finished matches on the leaderboard', async () => {
  const ann = await player('ann');
  const bob = await player('bob');
  expect(await bob.finishMatch(100)).toBe(1);
  expect(await ann.finishMatch(80)).toBe(2);
  expect(await ann.finishMatch(120)).toBe(1);
  expect(await ann.topPlayers()).toEqual(['ann 120', 'bob 100']);
});

it('starts each test from an empty project (reset), so "ann" can register again', async () => {
  const ann = await player('ann');
  expect(await ann.topPlayers()).toEqual([]);
  await ann.addNote('draft');
  expect(await ann.notes()).toEqual(['draft']);
  expect(await (await player('bob')).notes()).toEqual([]);
});
