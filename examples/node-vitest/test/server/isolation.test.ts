// Runs at the same time as game.test.ts, in another worker, on the same server: the same user names and
// leaderboard, yet neither file sees the other's players or scores, because each has a project of its own.
import { createTestProject } from '@basekit/mock-server/testing';
import { createClient } from '@basekit/sdk';
import { expect, inject, it } from 'vitest';
import { createGame } from '../../src/game.js';
import { useTestProject } from './project.js';

const project = useTestProject();

it('has its own players and scores', async () => {
  await createClient(project().clientOptions).auth.register({ username: 'ann', password: 'other-password' });
  const ann = createGame(project().clientOptions);
  await ann.signIn('ann', 'other-password');
  expect(await ann.finishMatch(5)).toBe(1);
  expect(await ann.topPlayers()).toEqual(['ann 5']);
});

it("refuses a deleted project's keys", async () => {
  const deleted = await createTestProject(inject('basekitServer'));
  await deleted.delete();
  const refused = await createClient(deleted.clientOptions)
    .auth.register({ username: 'ann', password: 'pw' })
    .catch((error: unknown) => error);
  expect(refused).toMatchObject({ status: 404 });
});
