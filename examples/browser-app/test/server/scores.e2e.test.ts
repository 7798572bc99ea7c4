// Runs beside notes.e2e.test.ts in another worker on the same server and Chromium, with the same user names.
import { expect } from 'vitest';
import { signIn } from '../support.js';
import { test } from './fixtures.js';

test("the leaderboard shows this project's players only", async ({ page }) => {
  await signIn(page, 'ann', 'register');
  await page.fill('#score', '120');
  await page.click('#send-score');
  await expect.poll(() => page.locator('#top li').allTextContents()).toEqual(['ann — 120']);
  await page.click('#logout');
  await signIn(page, 'bob', 'register');
  await page.fill('#score', '90');
  await page.click('#send-score');
  await expect.poll(() => page.locator('#top li').allTextContents()).toEqual(['ann — 120', 'bob — 90']);
});
