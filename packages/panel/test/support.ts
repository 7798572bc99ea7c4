// Set-up shared by the panel's Chromium tests: build the panel once per test file, serve it from a real reference
// server, drive Chromium through playwright-core, sign in with the master key.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ConfigInput } from '@basekit/engine';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../../test/support/chromium.js';
import { startTestServer, type TestServer } from '../../../mock-server/test/support/server.js';

const panelRoot = fileURLToPath(new URL('../', import.meta.url));
const viteCli = fileURLToPath(new URL('../../../node_modules/vite/bin/vite.js', import.meta.url));

/** Builds the panel from its sources into a new temporary folder, as the package's build does. */
export async function buildPanel(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'basekit-panel-'));
  // Without the test's NODE_ENV (Vitest sets "test"), which would make Vite build a development bundle.
  const { NODE_ENV: _testEnv, ...env } = process.env;
  await promisify(execFile)(
    process.execPath,
    [viteCli, 'build', panelRoot, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { env },
  );
  return outDir;
}

/** A reference server serving a fresh panel build, and one Chromium page. */
export interface PanelTest {
  server: TestServer;
  browser: Browser;
  page: Page;
  /** The panel's address on the server, with its trailing slash. */
  panelUrl: string;
  close(): Promise<void>;
}

/**
 * Builds the panel, starts a server on `overrides` (over the test config) serving it, and opens a Chromium page.
 * Call in `beforeAll` (builds take a second or two) and close in `afterAll`.
 */
export async function startPanel(overrides: Partial<ConfigInput> = {}): Promise<PanelTest> {
  const panelDir = await buildPanel();
  const server = await startTestServer(overrides, { panelDir });
  const browser = await launchChromium();
  const page = await browser.newPage();
  return {
    server,
    browser,
    page,
    panelUrl: `${server.url}/__admin/panel/`,
    async close() {
      await browser.close();
      await server.close();
      await rm(panelDir, { recursive: true, force: true });
    },
  };
}

/** Opens the panel at `path` (a panel URL below /__admin/panel/, e.g. "users/<id>") and waits for its navigation. */
export async function openPanel({ page, panelUrl }: PanelTest, path = ''): Promise<void> {
  await page.goto(panelUrl + path);
  // Attached, not visible: on a narrow screen the menu is folded away.
  await page
    .getByRole('navigation', { name: 'Pages', exact: true, includeHidden: true })
    .waitFor({ state: 'attached' });
}

/** Opens the panel at `path` and signs in with the server's master key through the sign-in form. */
export async function signIn(panel: PanelTest, path = ''): Promise<void> {
  await panel.page.goto(panel.panelUrl + path);
  await panel.page.getByLabel('Master key').fill(panel.server.config.masterKey);
  await panel.page.getByRole('button', { name: 'Sign in' }).click();
  await panel.page.getByRole('navigation', { name: 'Pages', exact: true }).waitFor();
}

/**
 * Opens the panel at `path`, signing in first when the tab holds no session, so that a test that needs a session
 * runs alone as well as after the others.
 */
export async function openSignedIn(panel: PanelTest, path = ''): Promise<void> {
  const { page } = panel;
  await page.goto(panel.panelUrl + path);
  const pages = page.getByRole('navigation', { name: 'Pages', exact: true, includeHidden: true });
  const key = page.getByRole('textbox', { name: 'Master key', exact: true });
  await pages.or(key).first().waitFor({ state: 'attached' });
  if ((await key.count()) === 0) return;
  await key.fill(panel.server.config.masterKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await pages.waitFor({ state: 'attached' });
}
