import * as esbuild from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/support/chromium.js';

// The browser's image resizer, run where it runs: in Chromium, on OffscreenCanvas and createImageBitmap.

const entry = fileURLToPath(new URL('../src/canvas-resizer.ts', import.meta.url));
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundle = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    globalName: 'resizer',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
});
afterAll(() => browser?.close());

/** Resizes a `width`×`height` PNG inside the page to fit `box`; the size of what comes back. */
async function resized(width: number, height: number, box: [number, number]): Promise<[number, number]> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const out = await page.evaluate(
    async ({ bytes, box }) => {
      const images = (
        globalThis as unknown as { resizer: typeof import('../src/canvas-resizer.js') }
      ).resizer.canvasImageResizer()!;
      const image = await images.resize(new Uint8Array(bytes), box[0], box[1]);
      return image && [...image.bytes];
    },
    { bytes: [...png], box },
  );
  const meta = await sharp(Uint8Array.from(out!)).metadata();
  return [meta.width!, meta.height!];
}

describe('canvasImageResizer', () => {
  it('fits an image inside the box, keeping its aspect ratio', async () => {
    expect(await resized(200, 100, [50, 50])).toEqual([50, 25]);
  });

  it('never enlarges an image, as the reference server does not', async () => {
    expect(await resized(20, 10, [4096, 4096])).toEqual([20, 10]);
    expect(await resized(20, 10, [40, 5])).toEqual([10, 5]);
  });
});
