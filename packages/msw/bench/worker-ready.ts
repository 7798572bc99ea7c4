import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../../test/support/chromium.js';
import type { ReadyReport } from './apps/report.js';
import type { Chunk } from './bundle.js';
import { serveSite, type Site } from './static-server.js';

// The worker script `npx msw init` writes: msw's own copy, so it always matches the installed msw.
const workerScript = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'));

/** A page that loads the app's entry chunk, with every chunk and the worker script beside it. */
function siteOf(chunks: Chunk[]): Site {
  const site: Site = new Map([
    [
      '/',
      {
        contents: '<!doctype html><meta charset="utf-8"><script type="module" src="/app.js"></script>',
        type: 'text/html',
      },
    ],
    ['/mockServiceWorker.js', { contents: workerScript, type: 'text/javascript' }],
  ]);
  for (const chunk of chunks) site.set(chunk.path, { contents: chunk.contents, type: 'text/javascript' });
  return site;
}

/** Opens the app's page in a fresh context (no worker installed yet, as in a new test) and returns its report. */
async function openOnce(browser: Browser, url: string): Promise<ReadyReport> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url);
    // waitForFunction waits until the report is there.
    const report = (await (
      await page.waitForFunction(() => window.benchReport, undefined, { timeout: 30_000 })
    ).jsonValue())!;
    if (report.status !== 200) throw new Error(`${url}: the worker answered the probe with ${report.status}`);
    return report;
  } finally {
    await context.close();
  }
}

/**
 * Opens each app's page `rounds` times in Chromium, the apps taking turns, and returns every report by
 * app name.
 */
export async function measureReady(
  apps: Record<string, Chunk[]>,
  rounds: number,
): Promise<Record<string, ReadyReport[]>> {
  const sites = await Promise.all(
    Object.entries(apps).map(async ([name, chunks]) => ({ name, ...(await serveSite(siteOf(chunks))) })),
  );
  const browser = await launchChromium();
  const reports: Record<string, ReadyReport[]> = Object.fromEntries(sites.map(({ name }) => [name, []]));
  try {
    // One unrecorded round first: Chromium's own first start-up costs should colour neither app.
    for (const site of sites) await openOnce(browser, site.url);
    for (let round = 0; round < rounds; round++) {
      for (const site of sites) reports[site.name]!.push(await openOnce(browser, site.url));
    }
  } finally {
    await browser.close();
    for (const { server } of sites) server.close();
  }
  return reports;
}
