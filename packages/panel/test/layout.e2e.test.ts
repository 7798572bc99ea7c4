// The panel's layout from a phone's width to a wide screen, and its keyboard shortcuts, in Chromium: no page
// overflows sideways at 400 or 360 px (every page and selection, each with data in it), the side menu folds away behind
// a button, the top bar stays one line; `/` goes to the page's search field and Ctrl+K opens the command palette of
// pages and actions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authIdHeader, createUser, masterAuth } from '../../engine/test/support/users.js';
import { transcoderClient } from '../../../mock-server/test/transcoder/support.js';
import { seedNotes } from './database-support.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let userId: string;
let jobId: string;
let requestId: string;
beforeAll(async () => {
  panel = await startPanel();
  const { server } = panel;
  // Something on every page, with long names: a user, an e-mail, a file deep in folders, rows of every type, a job,
  // scores, a fault, a snapshot, requests.
  const ann = await createUser(server, 'annabelle.with-a-rather-long-username', {
    firstName: 'Annabelle',
    lastName: 'García-Øster',
    email: 'annabelle.garcia.oster@a-company-with-a-long-domain.example.com',
  });
  userId = ann.userId;
  const form = new FormData();
  form.set(
    'fileItems[0].fileToUpload',
    new Blob(['a quarterly report']),
    'quarterly-report-of-the-northern-region.txt',
  );
  form.set('fileItems[0].path', 'documents/reports/2025/quarterly');
  form.set('fileItems[0].replacing', 'false');
  const storage = { 'X-Service-Storage-Id': server.config.storageId, ...ann.auth };
  expect((await server.request('/files', { method: 'POST', headers: storage, body: form })).status).toBe(200);
  const game = { 'X-Service-Game-Id': server.config.gameId, 'Content-Type': 'application/json', ...ann.auth };
  const event = { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 1200 }] };
  await server.request('/game/events', { method: 'POST', headers: game, body: JSON.stringify(event) });
  await seedNotes(panel);
  // A job that fails at once (nothing listens at its source), submitted by the user, with a setting of the project.
  const master = transcoderClient(server, await masterAuth(server));
  expect(
    (await master('/metadata/thumbnail', { name: 'one-shot-at-the-first-second', shots: ['00:00:01'] })).status,
  ).toBe(201);
  expect((await master('/metadata/upload', { name: 'a-receiver', url: 'http://127.0.0.1:9/upload' })).status).toBe(201);
  const convert = await transcoderClient(server, ann.auth)('/video/convert', {
    url: 'http://127.0.0.1:9/a-source-video-with-a-long-name-that-nothing-serves.mp4',
    thumbnail: 'one-shot-at-the-first-second',
    upload: 'a-receiver',
  });
  expect(convert.status, await convert.clone().text()).toBe(202);
  jobId = ((await convert.json()) as { requestId: string }).requestId;
  const json = { 'Content-Type': 'application/json' };
  const fault = { method: 'GET', path: '/object-storage/classes/{tableName}/{objectId}', delayMs: 1, times: 1000 };
  await server.admin('/__admin/faults', { method: 'POST', headers: json, body: JSON.stringify(fault) });
  await server.admin('/__admin/snapshots/seeded-with-every-kind-of-data', { method: 'PUT' });
  await server.admin('/__admin/config', { method: 'PATCH', headers: json, body: '{"emailConfirmation":true}' });
  await server.request('/auth/users', {
    method: 'POST',
    headers: { ...authIdHeader(server), ...json },
    body: JSON.stringify({
      username: 'ben',
      password: 'pw',
      email: 'ben.with-a-long-address@another-long-domain.example',
    }),
  });
  const [registration] = (
    (await (await server.admin('/__admin/requests?text=ben.with&limit=1')).json()) as { requests: { id: string }[] }
  ).requests;
  requestId = registration!.id;
  // The job has ended (its page then shows its whole timeline).
  const jobState = async () =>
    ((await (await server.admin('/__admin/jobs')).json()) as { jobs: { state: string }[] }).jobs[0]?.state;
  for (let tries = 0; !/REJECTED|FAILED/.test((await jobState()) ?? '') && tries < 100; tries++)
    await new Promise((resolve) => setTimeout(resolve, 200));
  await signIn(panel, 'project');
});
afterAll(() => panel.close());

/** Pages of every kind, with a selection where the page has one. */
const pagesToCheck = () => [
  'project',
  'users',
  `users/${userId}`,
  'database',
  'database/Note',
  'database/Note/n1',
  'files',
  'files/documents/reports/2025/quarterly',
  'files/documents/reports/2025/quarterly?view=grid',
  'files/documents/reports/2025/quarterly/quarterly-report-of-the-northern-region.txt',
  'transcoder',
  `transcoder/jobs/${jobId}`,
  'leaderboards',
  'leaderboards/high-score',
  `leaderboards/high-score?player=${userId}`,
  'requests',
  `requests/${requestId}`,
];

it.each([400, 360])('no page overflows sideways at %i px', async (width) => {
  const { page } = panel;
  await page.setViewportSize({ width, height: 800 });
  try {
    const overflowing: string[] = [];
    for (const path of pagesToCheck()) {
      await openPanel(panel, path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // Once the page's data is in (no "Loading…" left).
      await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
      const { scrollWidth, clientWidth } = await page.evaluate(() => {
        const { scrollWidth, clientWidth } = document.documentElement;
        return { scrollWidth, clientWidth };
      });
      if (scrollWidth > clientWidth) overflowing.push(`${path}: ${scrollWidth} px`);
    }
    expect(overflowing).toEqual([]);
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});

describe('at 400 px wide', () => {
  beforeAll(() => panel.page.setViewportSize({ width: 400, height: 800 }));
  afterAll(() => panel.page.setViewportSize({ width: 1280, height: 720 }));

  it('folds the side menu away behind a button, and the top bar stays one line', async () => {
    const { page } = panel;
    await openPanel(panel, 'users');
    const menu = page.getByRole('navigation', { name: 'Pages', exact: true });
    expect(await menu.isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Menu', exact: true });
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await menu.getByRole('link', { name: 'Files' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/files');
    await expect.poll(() => menu.isVisible()).toBe(false);
    // Escape folds it too.
    await toggle.click();
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.isVisible()).toBe(false);

    for (const width of [360, 400]) {
      await page.setViewportSize({ width, height: 800 });
      // One line: every item starts above the bottom of every other.
      const boxes = await page.locator('header.top > *').evaluateAll((items) =>
        items
          .map((item) => item.getBoundingClientRect())
          .filter((box) => box.width > 0)
          .map(({ top, bottom }) => ({ top, bottom })),
      );
      const lowestTop = Math.max(...boxes.map((box) => box.top));
      const highestBottom = Math.min(...boxes.map((box) => box.bottom));
      expect(lowestTop, `the top bar at ${width} px is one line`).toBeLessThan(highestBottom);
      const header = await page.locator('header.top').evaluate((element) => element.scrollWidth <= element.clientWidth);
      expect(header, `the top bar fits at ${width} px`).toBe(true);
    }
  });

  it("keeps the request list's path column readable", async () => {
    const { page } = panel;
    await openPanel(panel, 'requests');
    const path = page
      .getByRole('table', { name: /^Requests/ })
      .getByRole('cell')
      .nth(2);
    await path.waitFor();
    expect((await path.boundingBox())!.width).toBeGreaterThan(150);
  });
});

it('says each heading once: no table caption repeats the heading just above it', async () => {
  const { page } = panel;
  const repeated: string[] = [];
  for (const path of pagesToCheck()) {
    await openPanel(panel, path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await expect.poll(() => page.getByText(/^Loading/).count()).toBe(0);
    const titles = await page
      .locator('main :is(h2, h3, caption)')
      .evaluateAll((items) => items.map((item) => [item.tagName, item.textContent?.trim() ?? '']));
    titles.forEach(([tag, text], i) => {
      const [aboveTag, above] = titles[i - 1] ?? [];
      if (tag === 'CAPTION' && aboveTag !== 'CAPTION' && above && text!.startsWith(above))
        repeated.push(`${path}: “${above}” then “${text}”`);
    });
  }
  expect(repeated).toEqual([]);
});

describe('keyboard shortcuts', () => {
  it('/ goes to the search field of the page', async () => {
    const { page } = panel;
    await openPanel(panel, 'users');
    await page.getByRole('heading', { level: 1 }).focus();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.type('garcia');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        page
          .getByRole('table', { name: /^Users/ })
          .getByRole('link')
          .allTextContents(),
      )
      .toEqual(['annabelle.with-a-rather-long-username']);
  });

  it('Ctrl+K opens the command palette: pages and the actions of the page on screen, by typing and Enter', async () => {
    const { page } = panel;
    await openPanel(panel, 'users');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Go to a page or run a command' });
    await palette.waitFor();
    await page.keyboard.type('go to req');
    expect(await palette.getByRole('option').allTextContents()).toEqual(['Go to Requests']);
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/__admin/panel/requests');
    expect(await palette.count()).toBe(0);

    // An action of the Users page, chosen with the arrow keys; the Requests page's actions are gone with it.
    await openPanel(panel, 'users');
    // The page's actions join the palette once the page is on screen, which may be after the menu.
    await page.getByRole('button', { name: 'Create user' }).waitFor();
    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await page.keyboard.type('user');
    expect(await palette.getByRole('option').allTextContents()).toEqual(['Create user', 'Go to Users']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Create user' }).waitFor();
    await page.keyboard.press('Escape');

    // The theme, from the palette; the picker follows.
    await page.keyboard.press('Control+k');
    await palette.waitFor();
    await page.keyboard.type('theme dark');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe('dark');
    expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
    await page.getByLabel('Theme').selectOption('system');
  });

  it('hears a link followed and Ctrl+K pressed in the task that shows the layout or the page', async () => {
    const { page } = panel;
    const palette = page.getByRole('dialog', { name: 'Go to a page or run a command' });
    // Once `selector` shows, before the effects of what shows it run (as a fast user or a test acts): clicks `link`,
    // or presses Ctrl+K.
    const onceShown = (selector: string, link?: string) =>
      page.evaluate(
        ([selector, link]) => {
          new MutationObserver((_, observer) => {
            if (!document.querySelector(selector!)) return;
            observer.disconnect();
            if (link) document.querySelector<HTMLElement>(link)!.click();
            else document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }));
          }).observe(document.body, { childList: true, subtree: true });
        },
        [selector, link],
      );
    const signInAgain = async (act: () => Promise<void>) => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Master key').fill(panel.server.config.masterKey);
      await act();
      await page.getByRole('button', { name: 'Sign in' }).click();
    };
    const menu = 'nav[aria-label="Pages"]';

    // The layout, as the sign-in shows it: a link of its menu, then Ctrl+K.
    await openPanel(panel, 'requests');
    await signInAgain(() => onceShown(menu, `${menu} a[href$="/files"]`));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Files');
    await signInAgain(() => onceShown(menu));
    await palette.waitFor({ timeout: 5000 });
    await page.keyboard.press('Escape');
    expect(await palette.count()).toBe(0);

    // The Users page, as its link shows it: its action is in the palette.
    await onceShown('input[placeholder="name, e-mail or user id"]');
    await page.getByRole('navigation', { name: 'Pages', exact: true }).getByRole('link', { name: 'Users' }).click();
    await palette.waitFor({ timeout: 5000 });
    await page.keyboard.type('user');
    expect(await palette.getByRole('option').allTextContents()).toEqual(['Create user', 'Go to Users']);
    await page.keyboard.press('Escape');
  });
});
