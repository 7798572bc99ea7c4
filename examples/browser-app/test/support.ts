// Set-up shared by the Chromium tests: build and serve the page, launch Chromium, open the page.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { preview } from 'vite';
import { expect } from 'vitest';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** A build of the page, served on 127.0.0.1 (a secure context, as service workers need). */
export interface Site {
  url: string;
  outDir: string;
  close(): Promise<void>;
}

// The package does not export its bin: find it beside its package.json.
const viteCli = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');

/**
 * Builds the page with Vite's command line, as a user would (`vite build --mode mock`), and serves it: `mock` is the
 * test build that carries the mocked backend (`.env.mock`), `production` the one that carries none of it. The build
 * runs without the test's NODE_ENV (Vitest sets `test`), which would make Vite build with `import.meta.env.DEV` true.
 */
export async function serveBuild(mode: 'mock' | 'production'): Promise<Site> {
  const outDir = await mkdtemp(join(tmpdir(), 'browser-app-'));
  const { NODE_ENV: _testEnv, ...env } = process.env;
  await promisify(execFile)(
    process.execPath,
    [viteCli, 'build', '--mode', mode, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: root, env },
  );
  const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
  return {
    url: server.resolvedUrls!.local[0]!,
    outDir,
    async close() {
      await new Promise((resolve) => server.httpServer.close(resolve));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

// Chromium: the machine's own, wherever it is (CHROME_PATH, Playwright's, the usual places): the repository's launcher.
export { launchChromium, launchChromiumServer } from '../../../test/support/chromium.js';

/** Opens the page and waits until it is wired (when mocking: its worker started and its seed in). */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('body[data-ready="true"]').waitFor();
}

/** Registers (`register`) or logs in through the page's form and waits until the page shows the user. */
export async function signIn(page: Page, username: string, button: 'register' | 'login' = 'login'): Promise<void> {
  await page.fill('#username', username);
  await page.fill('#password', `${username}-password`);
  await page.click(`#${button}`);
  await expect.poll(() => page.textContent('#who')).toBe(`Signed in as ${username}`);
}
