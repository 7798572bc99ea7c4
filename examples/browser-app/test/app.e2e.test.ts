import { startServer, type RunningServer } from '@basekit/mock-server';
import { connectServer } from '@basekit/msw';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoSeed } from '../src/mocks/demo-seed.js';
import { launchChromium, openApp, root, serveBuild, signIn, type Site } from './support.js';

const screenshots = join(root, 'test-results');

let site: Site;
let browser: Browser;
let reference: RunningServer;
let photo: Buffer;

beforeAll(async () => {
  site = await serveBuild('mock');
  browser = await launchChromium();
  reference = await startServer({ port: 0 });
  await connectServer({ url: reference.url, masterKey: 'dev-master-key', seed: demoSeed }).ready;
  photo = await sharp({ create: { width: 200, height: 100, channels: 3, background: { r: 220, g: 40, b: 40 } } })
    .png()
    .toBuffer();
});

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  await site?.close();
});

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

/** Clicks through every feature of the page and returns what it shows; a screenshot goes to test-results/. */
async function clickThrough(page: Page, name: string) {
  await signIn(page, 'ann', 'register');

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
  const photoProgress = await page
    .locator('#photo-progress')
    .evaluate((bar: HTMLProgressElement) => ({ value: bar.value, shown: !bar.hidden }));
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#photo-download')]);
  const downloaded = {
    name: download.suggestedFilename(),
    sameBytes: (await readFile(await download.path())).equals(photo),
  };

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
    photoProgress,
    downloaded,
    photoPixel: await page.evaluate(() => {
      const img = document.getElementById('photo-preview') as HTMLImageElement;
      const canvas = Object.assign(document.createElement('canvas'), {
        width: img.naturalWidth,
        height: img.naturalHeight,
      });
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      return Array.from(context.getImageData(10, 10, 1, 1).data);
    }),
    top: await texts(page, '#top li'),
    error: await page.textContent('#error'),
  };

  // A seeded player logs in with the fixture's password.
  await page.click('#logout');
  await signIn(page, 'bob');
  return { ...shown, bobNotes: await texts(page, '#notes li') };
}

async function run(query: string, name: string) {
  const page = await browser.newPage();
  try {
    await openApp(page, `${site.url}${query}`);
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
    // The upload's progress reached its end: through the service worker too.
    photoProgress: { value: 1, shown: true },
    downloaded: { name: 'red.png', sameBytes: true },
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
