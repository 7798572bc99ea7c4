// The management panel (issue 17): its built size (gzip: every file, and what the browser fetches to show the sign-in
// form and a signed-in page; ceiling 150 KB) and its load time from the local server in Chromium (cold cache, until
// the page is usable; ceiling 1 s), in rounds; the request inspector live at 200 requests a second (issue 30,
// panel-inspector.ts).
// Run: `npm run bench -w @basekit/mock-server -- panel`.
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { startServer } from '../src/server.js';
import { launchChromium } from '../../test/support/chromium.js';
import { buildPanel } from '../test/panel/support.js';
import { inspectorBench } from './panel-inspector.js';

const ROUNDS = 7;
const CEILING_KB = 150;
const CEILING_MS = 1000;
// The key api.ts keeps the master key under in the tab's sessionStorage: a signed-in tab opening a shared link.
const KEY_STORAGE = 'basekit-panel:master-key';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const outDir = await buildPanel();
// Gzip at level 9, what a static server or CDN would send; the reference server itself sends the files as they are.
const gzipSizes = new Map<string, number>();
for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const path = join(entry.parentPath, entry.name).slice(outDir.length).replace(/\\/g, '/');
  gzipSizes.set(path, gzipSync(await readFile(join(entry.parentPath, entry.name)), { level: 9 }).length);
}
const sum = (paths: Iterable<string>) => [...paths].reduce((total, path) => total + (gzipSizes.get(path) ?? 0), 0);

const server = await startServer({ port: 0, panelDir: outDir });
const panelUrl = `${server.url}/__admin/panel/`;
const browser: Browser = await launchChromium();

/** One cold load (a new browser context: no cache, no session): milliseconds until `ready` and the panel files fetched. */
async function load(path: string, signedIn: boolean, ready: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  if (signedIn)
    await context.addInitScript(
      ([key, value]) => sessionStorage.setItem(key!, value!),
      [KEY_STORAGE, server.engine.project.config.masterKey],
    );
  const page = await context.newPage();
  const fetched = new Set<string>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/__admin/panel/'))
      fetched.add(
        pathname.endsWith('/') || !pathname.includes('/assets/')
          ? '/index.html'
          : pathname.slice('/__admin/panel'.length),
      );
  });
  const started = performance.now();
  await page.goto(panelUrl + path);
  await ready(page);
  const ms = performance.now() - started;
  await context.close();
  return { ms, fetched };
}

const cases = [
  { name: 'sign-in form', path: '', signedIn: false, ready: (page: Page) => page.getByLabel('Master key').waitFor() },
  {
    name: 'Project page, signed in',
    path: 'project',
    signedIn: true,
    ready: (page: Page) => page.getByRole('heading', { name: 'Keys, ids and URLs' }).waitFor(),
  },
];

const all = sum(gzipSizes.keys());
const hls = sum([...gzipSizes.keys()].filter((path) => /\/hls[.-]/.test(path)));
console.log(
  `panel build, gzip -9: ${kb(all)} in ${gzipSizes.size} files (${all <= CEILING_KB * 1024 ? 'within' : 'OVER'} ${CEILING_KB} KB); ` +
    `hls.js ${kb(hls)} of it, loaded only to play a video on the transcoder page; the panel's own files ${kb(all - hls)}`,
);
try {
  for (const { name, path, signedIn, ready } of cases) {
    const times: number[] = [];
    let fetched = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const round = await load(path, signedIn, ready);
      times.push(round.ms);
      fetched = round.fetched;
    }
    const first = sum(fetched);
    console.log(
      `${name.padEnd(24)} first load ${kb(first).padStart(8)} gzip in ${fetched.size} files (${first <= CEILING_KB * 1024 ? 'within' : 'OVER'} ${CEILING_KB} KB)   ` +
        `load median ${Math.round(median(times))} ms [${times.map((t) => Math.round(t)).join(', ')}] (${median(times) <= CEILING_MS ? 'within' : 'OVER'} ${CEILING_MS} ms)`,
    );
  }
  await inspectorBench(server, panelUrl, browser);
} finally {
  await browser.close();
  await server.close();
  await rm(outDir, { recursive: true, force: true });
}
