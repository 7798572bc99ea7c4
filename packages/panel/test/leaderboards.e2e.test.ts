import { afterAll, beforeAll, expect, it } from 'vitest';
import { player } from '../../../packages/engine/test/leaderboards/support.js';
import { createUser, type TestUser } from '../../engine/test/support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let ann: TestUser;
let bob: TestUser;
beforeAll(async () => {
  panel = await startPanel();
  ann = await createUser(panel.server, 'ann');
  bob = await createUser(panel.server, 'bob');
  await signIn(panel, 'leaderboards');
});
afterAll(() => panel.close());

const config = async () =>
  (await (await panel.server.admin('/__admin/config')).json()) as { events: unknown[]; leaderboards: unknown[] };
const status = (name: string) => panel.page.getByRole('form', { name }).getByRole('status').textContent();
const rows = (caption: string) => panel.page.getByRole('table', { name: caption }).getByRole('row').allTextContents();

it('defines an event and a leaderboard; events users post show in its top list and neighbourhood; reset empties it', async () => {
  const { page } = panel;
  await openPanel(panel, 'leaderboards');
  await page.getByLabel('Event name').fill('race');
  await page.getByLabel('Event fields').fill('time, laps');
  await page.getByRole('button', { name: 'Save event' }).click();
  await expect.poll(() => status('Define an event')).toBe('Event race saved.');
  expect(await rows('Events')).toContain('racetime, lapsRemove');

  await page.getByLabel('Leaderboard id').fill('fastest');
  await page.getByLabel('Field 1 (first priority)').selectOption({ label: 'race.time' });
  await page.getByLabel('Field 2').selectOption({ label: 'race.laps' });
  await page.getByLabel('Order').selectOption('asc');
  await page.getByRole('button', { name: 'Define leaderboard' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/leaderboards/fastest');
  expect((await config()).leaderboards).toContainEqual({
    id: 'fastest',
    fields: [
      { event: 'race', field: 'time' },
      { event: 'race', field: 'laps' },
    ],
    aggregation: 'best',
    order: 'asc',
  });

  // Posted as an app would: each user with their own token.
  for (const [user, time] of [
    [ann, 42],
    [bob, 30],
  ] as const) {
    const res = await player(panel.server, user).post({
      eventName: 'race',
      fieldsAndValues: [
        { fieldName: 'time', value: time },
        { fieldName: 'laps', value: 3 },
      ],
    });
    expect(res.status).toBe(200);
  }
  await openPanel(panel, 'leaderboards/fastest');
  await expect
    .poll(() => rows('Top players of fastest'))
    .toEqual(['RankPlayerrace.timerace.laps', '1bob303', '2ann423']);

  await page.getByLabel('Player', { exact: true }).fill('ann');
  await page.getByRole('button', { name: 'Show neighbourhood' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('player')).toBe(ann.userId);
  await expect
    .poll(() => rows('Around the player on fastest'))
    .toEqual(['RankPlayerrace.timerace.laps', '1bob303', '2ann423']);
  expect(await page.getByText('Rank 2, scores 42, 3.').count()).toBe(1);

  await page.getByRole('button', { name: 'Reset scores' }).click();
  await page.getByRole('dialog', { name: 'Reset fastest?' }).getByRole('button', { name: 'Reset' }).click();
  await expect.poll(() => rows('Top players of fastest')).toEqual(['RankPlayerrace.timerace.laps', 'No scores yet.']);
  const top = await player(panel.server, ann).get('/game/leaderboards/top/fastest');
  expect(((await top.json()) as { usersProfile: unknown[] }).usersProfile).toEqual([]);
});

it('refuses to remove an event a leaderboard ranks, removes the leaderboard, then the event', async () => {
  const { page } = panel;
  await openPanel(panel, 'leaderboards');
  await page.getByRole('button', { name: 'Remove event race' }).click();
  const said = () => page.getByRole('status').filter({ hasText: 'race' }).textContent();
  await expect.poll(said).toMatch(/"race".*\(code \d+\)/);
  expect((await config()).events).toContainEqual({ name: 'race', fields: ['time', 'laps'] });

  await page.getByRole('link', { name: 'fastest' }).click();
  await page.getByRole('button', { name: 'Remove leaderboard' }).click();
  await page.getByRole('dialog', { name: 'Remove fastest?' }).getByRole('button', { name: 'Remove' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/leaderboards');
  expect(await rows('Leaderboards')).not.toContainEqual(expect.stringContaining('fastest'));
  await page.getByRole('button', { name: 'Remove event race' }).click();
  await expect.poll(said).toBe('Event race removed.');
  expect((await config()).events).not.toContainEqual(expect.objectContaining({ name: 'race' }));
});

it("shows a failed player look-up in the neighbourhood, without the previous player's rank and table", async () => {
  const { page, server } = panel;
  const posted = await player(server, ann).post({
    eventName: 'match_end',
    fieldsAndValues: [{ fieldName: 'score', value: 50 }],
  });
  expect(posted.status).toBe(200);
  await openPanel(panel, `leaderboards/high-score?player=${ann.userId}`);
  const around = page.getByRole('table', { name: 'Around the player on high-score' });
  await expect.poll(() => around.count()).toBe(1);
  await page.getByText('Rank 1, scores 50.').waitFor();

  await page.getByLabel('Player', { exact: true }).fill('nobody');
  await page.getByRole('button', { name: 'Show neighbourhood' }).click();
  const neighbourhood = page.getByRole('region', { name: "A player's neighbourhood" });
  await expect
    .poll(() => neighbourhood.getByRole('status').textContent())
    .toBe('No user has the username or user id "nobody".');
  expect(await around.count()).toBe(0);
  expect(await page.getByText('Rank 1, scores 50.').count()).toBe(0);
  // The error is said once, where the look-up is.
  expect(await page.getByText('No user has the username or user id "nobody".').count()).toBe(1);
});
