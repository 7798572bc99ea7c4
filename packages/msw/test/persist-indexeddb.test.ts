// `persist: 'indexeddb'` in Chromium: a page writes (a session, a row, a file), is reloaded, and reads it all back
// with the tokens it had; the seed is not applied twice, `reset()` returns to it and `clearPersistedState` forgets.
import * as esbuild from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../../../test/support/chromium.js';

/** The functions `persist/page.ts` puts on the page. */
type PageApi = Record<string, (arg?: unknown) => Promise<unknown>>;

let server: Server;
let browser: Browser;
let url: string;

beforeAll(async () => {
  const bundle = await esbuild.build({
    entryPoints: [fileURLToPath(new URL('./persist/page.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const script = bundle.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === '/page.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    else
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end('<!doctype html><script type="module" src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Calls a function of the test page. */
async function run(page: Page, name: string, arg?: unknown): Promise<unknown> {
  await page.waitForFunction(() => 'persistTest' in globalThis);
  return page.evaluate(([n, a]) => (globalThis as unknown as { persistTest: PageApi }).persistTest[n as string]!(a), [
    name,
    arg,
  ] as const);
}

it('keeps rows, the user session and files across a page reload', async () => {
  const page = await browser.newPage();
  await page.goto(url);
  expect(await run(page, 'open')).toMatchObject({ snapshot: false, records: 0 });
  const written = (await run(page, 'write')) as { rowStatus: number; uploadStatus: number };
  expect(written).toMatchObject({ rowStatus: 201, uploadStatus: 200 });

  await page.reload();
  const restored = (await run(page, 'open')) as { snapshot: boolean; records: number };
  expect(restored.snapshot).toBe(true); // the seed, kept at once
  expect(restored.records).toBeGreaterThanOrEqual(3); // the log-in, the row, the upload
  expect(await run(page, 'read', written)).toEqual({ row: 'kept', renewal: 200, file: 'file bytes', users: 1 });

  expect(await run(page, 'reset')).toBe(0);
  await page.reload();
  await run(page, 'open');
  expect(await run(page, 'read', written)).toMatchObject({ renewal: 401, users: 1 });

  await run(page, 'clear');
  await page.reload();
  expect(await run(page, 'open')).toMatchObject({ snapshot: false, records: 0 });
  await page.close();
}, 60_000);

it('keeps the changes of the first tab only: a second tab of the origin starts from them and runs in memory', async () => {
  const context = await browser.newContext();
  const [first, second] = [await context.newPage(), await context.newPage()];
  const warnings: string[] = [];
  second.on('console', (message) => void (message.type() === 'warning' && warnings.push(message.text())));
  await first.goto(url);
  await run(first, 'open');
  const firstWrite = (await run(first, 'write')) as { rowId: string };
  await second.goto(url);
  expect(await run(second, 'open')).toMatchObject({ snapshot: true });
  expect(warnings.join('\n')).toContain('kept by another tab');
  expect(await run(second, 'read', firstWrite)).toMatchObject({ row: 'kept' });
  const secondWrite = (await run(second, 'write')) as { rowId: string };
  await second.close();
  await first.reload();
  await run(first, 'open');
  expect(await run(first, 'read', firstWrite)).toMatchObject({ row: 'kept' });
  expect(await run(first, 'read', secondWrite)).toMatchObject({ row: undefined });
  await context.close();
}, 60_000);
