// Playwright fixtures for Vitest: each worker a project of its own on the shared server and a connection to the
// shared Chromium; each test an empty project and a fresh browser context with the page open on that project.
import { createTestProject, type TestProject } from '@basekit/mock-server/testing';
import { chromium } from 'playwright-core';
import { inject, test as base } from 'vitest';
import { openApp } from '../support.js';

/** What the page needs of its project: the event it sends and the leaderboard it shows. */
const GAME = {
  events: [{ name: 'match_end', fields: ['score'] }],
  leaderboards: [{ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] }],
};

/** The page's address for a project: the server and the project's ids and keys as parameters (see `keysFrom`). */
function appUrl(siteUrl: string, project: TestProject): string {
  const { baseUrl, authenticationId, clientKey, objectStorageId, storageId, gameId } = project.clientOptions;
  return `${siteUrl}?${new URLSearchParams({ server: baseUrl, authenticationId, clientKey, objectStorageId, storageId, gameId })}`;
}

/**
 * `test` with the fixtures `project` (per worker), `browser` (per worker) and `page` (per test).
 *
 * @example
 * test('shows the user', async ({ page }) => {
 *   await signIn(page, 'ann', 'register');
 * });
 */
export const test = base
  // biome-ignore lint/correctness/noEmptyPattern: Vitest takes a fixture's dependencies from a destructuring pattern.
  .extend('project', { scope: 'worker' }, async ({}, { onCleanup }) => {
    const { serverUrl, adminKey } = inject('e2e');
    const project = await createTestProject({ url: serverUrl, adminKey, config: GAME });
    onCleanup(() => project.delete());
    return project;
  })
  // biome-ignore lint/correctness/noEmptyPattern: Vitest takes a fixture's dependencies from a destructuring pattern.
  .extend('browser', { scope: 'worker' }, async ({}, { onCleanup }) => {
    const browser = await chromium.connect(inject('e2e').browserEndpoint);
    onCleanup(() => browser.close());
    return browser;
  })
  .extend('page', async ({ project, browser }, { onCleanup }) => {
    await project.reset();
    const context = await browser.newContext();
    onCleanup(() => context.close());
    const page = await context.newPage();
    await openApp(page, appUrl(inject('e2e').siteUrl, project));
    return page;
  });
