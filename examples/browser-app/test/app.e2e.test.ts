import { startServer, type RunningServer } from '@basekit/mock-server';
import { connectServer } from '@basekit/msw';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoSeed } from '../src/mocks/demo-seed.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const screenshots = join(root, 'test-results');

let outDir: string;
let site: PreviewServer;
let browser: Browser;
let reference: RunningServer;
let photo: Buffer;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'browser-app-'));
  await build({ root, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  site = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0 } });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  reference = await startServer({ port: 0 });
  await connectServer({ url: reference.url, masterKey: 'dev-master-key', seed: demoSeed }).ready;
  photo = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 220, g: 40, b: 40 } } }).png().toBuffer();
});

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  await new Promise((resolve) => site?.httpServer.close(resolve));
  await rm(outDir, { recursive: true, force: true });
});

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

/** Clicks through every feature of the page and returns what it shows; a screenshot goes to test-results/. */
async function clickThrough(page: Page, name: string) {
  await page.locator('body[data-ready="true"]').waitFor();

  await page.fill('#username', 'ann');
  await page.fill('#password', 'ann-password');
  await page.click('#register');
  await expect.poll(() => page.textContent('#who')).toBe('Signed in as ann');

  for (const [i, title] of ['buy milk', 'call bob', 'buy bread'].entries()) {
    await page.fill('#note-title', title);
    await page.click('#add-note');
    await expect.poll(() => page.locator('#notes li').count()).toBe(i + 1);
  }
  const allNotes = await texts(page, '#notes li');
  await page.fill('#note-filter', 'BUY');
  await expect.poll(() => page.locator('#notes li').count()).toBe(2);

  await page.setInputFiles('#photo', { name: 'red.png', mimeType: 'image/png', buffer: photo });
  await page.locator('#photo-preview:not([hidden])').waitFor();

  await page.fill('#score', '120');
  await page.click('#send-score');
  await expect.poll(() => texts(page, '#top li')).toContain('ann — 120');

  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
  const shown = {
    backend: undefined as unknown,
    who: await page.textContent('#who'),
    allNotes,
    filteredNotes: await texts(page, '#notes li'),
    photo: await page.textContent('#photo-size'),
    photoPixel: await page.evaluate(() => {
      const img = document.getElementById('photo-preview') as HTMLImageElement;
      const canvas = Object.assign(document.createElement('canvas'), { width: img.naturalWidth, height: img.naturalHeight });
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      return Array.from(context.getImageData(10, 10, 1, 1).data);
    }),
    top: await texts(page, '#top li'),
    error: await page.textContent('#error'),
  };

  // A seeded player logs in with the fixture's password.
  await page.click('#logout');
  await page.fill('#username', 'bob');
  await page.fill('#password', 'bob-password');
  await page.click('#login');
  await expect.poll(() => page.textContent('#who')).toBe('Signed in as bob');
  return { ...shown, bobNotes: await texts(page, '#notes li') };
}

async function run(query: string, name: string) {
  const page = await browser.newPage();
  try {
    await page.goto(`${site.resolvedUrls!.local[0]}${query}`);
    const shown = await clickThrough(page, name);
    return { ...shown, backend: await page.textContent('#backend') };
  } finally {
    await page.close();
  }
}

let mocked: Awaited<ReturnType<typeof run>>;

it('works on the backend mocked by @basekit/msw in the service worker', async () => {
  mocked = await run('', 'mocked');
  expect(mocked).toEqual({
    backend: 'Backend: mocked in this page (@basekit/msw)',
    who: 'Signed in as ann',
    allNotes: ['buy bread', 'call bob', 'buy milk'],
    filteredNotes: ['buy bread', 'buy milk'],
    photo: 'Shown at 96×48, resized by the service',
    photoPixel: [220, 40, 40, 255],
    top: ['bob — 150', 'ann — 120', 'cara — 90'],
    error: '',
    bobNotes: [],
  });
}, 60_000);

it('shows the same page on a real reference server', async () => {
  const real = await run(`?server=${encodeURIComponent(reference.url)}`, 'reference-server');
  expect(real).toEqual({ ...mocked, backend: `Backend: reference server at ${reference.url}` });
}, 60_000);
