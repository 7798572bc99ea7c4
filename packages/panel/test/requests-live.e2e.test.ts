// The Requests page's live list in Chromium with more requests than a screen holds: only the rows in view are
// rendered, an older row is reached by scrolling and opens, and new requests never move the rows being read (while
// the list is scrolled away from its top, or the focus is in it, they are held and counted, and show back at the top).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
beforeAll(async () => {
  panel = await startPanel();
  await signIn(panel, 'requests');
}, 60_000);
afterAll(() => panel.close());

const LIVE = 'Live: new requests appear at the top.';

/** Makes `count` requests to `/auth/users/me?<name>=<i>` (each its own row), a few at a time, in order. */
async function makeRequests(name: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 25)
    await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, (_, j) =>
        panel.server.request(`/auth/users/me?${name}=${i + j}`),
      ),
    );
}

const table = () => panel.page.getByRole('table', { name: /^Requests/ });
const pathLink = (path: string) => table().getByRole('link', { name: path, exact: true });
const liveStatus = () => panel.page.locator('.requests-live');

/** Turns the mouse wheel over the list by `dy` pixels. */
async function wheel(dy: number): Promise<void> {
  const box = (await panel.page.locator('.requests-scroll').boundingBox())!;
  await panel.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await panel.page.mouse.wheel(0, dy);
}

/** The first row wholly in view below the list's header: its path and where it is on the screen. */
const firstRowInView = () =>
  panel.page.evaluate(() => {
    const scroller = document.querySelector('.requests-scroll')!;
    const below = document.querySelector('table.requests thead')!.getBoundingClientRect().bottom;
    const row = [...scroller.querySelectorAll('tbody tr[aria-rowindex]')].find(
      (tr) => tr.getBoundingClientRect().top >= below,
    )!;
    return { path: row.querySelector('td:nth-child(3)')!.textContent, top: row.getBoundingClientRect().top };
  });

it('renders only the rows in view of 300, and opens an older one reached by scrolling', async () => {
  const { page } = panel;
  await liveStatus().filter({ hasText: LIVE }).waitFor();
  await makeRequests('n', 300);
  await pathLink('/auth/users/me?n=299').waitFor();
  const rowCount = Number(await table().getAttribute('aria-rowcount'));
  expect(rowCount).toBeGreaterThan(300);
  const rendered = await table().locator('tbody tr[aria-rowindex]').count();
  expect(rendered).toBeGreaterThan(10);
  expect(rendered).toBeLessThan(60);

  // The wheel down to the fifth request, near the bottom of the list.
  const older = pathLink('/auth/users/me?n=4');
  for (let turns = 0; turns < 40 && (await older.count()) === 0; turns++) await wheel(600);
  await older.scrollIntoViewIfNeeded();
  await older.click();
  await page.waitForURL(/\/__admin\/panel\/requests\/[0-9a-z]+-\d+$/);
  await page.getByRole('heading', { name: /GET \/auth\/users\/me\?n=4 → \d{3}/ }).waitFor();
});

it('holds a request that arrives while the list is scrolled away, and shows it back at the top', async () => {
  await openPanel(panel, 'requests');
  await liveStatus().filter({ hasText: LIVE }).waitFor();
  await pathLink('/auth/users/me?n=299').waitFor();
  await wheel(1000);
  await liveStatus().filter({ hasText: 'Held while you read: 0 new requests.' }).waitFor();
  const before = await firstRowInView();
  const rowCount = await table().getAttribute('aria-rowcount');

  await makeRequests('late', 3);
  await liveStatus().filter({ hasText: 'Held while you read: 3 new requests.' }).waitFor();
  // A frame for anything that would move.
  await panel.page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  expect(await firstRowInView()).toEqual(before);
  expect(await table().getAttribute('aria-rowcount')).toBe(rowCount);
  expect(await pathLink('/auth/users/me?late=2').count()).toBe(0);

  // Back at the top, they show there, newest first.
  await wheel(-100_000);
  await liveStatus().filter({ hasText: LIVE }).waitFor();
  await expect.poll(async () => (await firstRowInView()).path).toBe('/auth/users/me?late=2');
  expect(await table().getAttribute('aria-rowcount')).toBe(String(Number(rowCount) + 3));
});

it('holds new requests while the focus is on a row, so that a keyboard reader keeps their place', async () => {
  await openPanel(panel, 'requests');
  await liveStatus().filter({ hasText: LIVE }).waitFor();
  const focused = pathLink('/auth/users/me?late=0');
  await focused.focus();
  await liveStatus().filter({ hasText: 'Held while you read: 0 new requests.' }).waitFor();
  const top = (await focused.boundingBox())!.y;

  await makeRequests('focused', 1);
  await liveStatus().filter({ hasText: 'Held while you read: 1 new request.' }).waitFor();
  expect((await focused.boundingBox())!.y).toBe(top);
  expect(await focused.evaluate((link) => link === document.activeElement)).toBe(true);

  // Focus leaves the list: the held request shows.
  await panel.page.getByRole('button', { name: 'Pause' }).focus();
  await liveStatus().filter({ hasText: LIVE }).waitFor();
  await pathLink('/auth/users/me?focused=0').waitFor();
});
