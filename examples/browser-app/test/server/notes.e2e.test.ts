// Runs beside scores.e2e.test.ts in another worker on the same server and Chromium, with the same user names.
import { expect } from 'vitest';
import { signIn } from '../support.js';
import { test } from './fixtures.js';

test('a new user adds notes and filters them', async ({ page }) => {
  await signIn(page, 'ann', 'register');
  for (const [i, title] of ['buy milk', 'call bob', 'buy bread'].entries()) {
    await page.fill('#note-title', title);
    await page.click('#add-note');
    await expect.poll(() => page.locator('#notes li').count()).toBe(i + 1);
  }
  await page.fill('#note-filter', 'BUY');
  await expect.poll(() => page.locator('#notes li').allTextContents()).toEqual(['buy bread', 'buy milk']);
});

test('each test starts from an empty project: the same user registers again, with no notes', async ({
  page,
  project,
}) => {
  await signIn(page, 'ann', 'register');
  expect(await page.locator('#notes li').count()).toBe(0);
  expect(await page.textContent('#backend')).toBe(`Backend: reference server at ${project.url}`);
});
