// The Files page in Chromium against a real server: folders, upload (file input and drag and drop) with progress,
// image preview resized by the server, download under a chosen name, rename, move and delete; thumbnails, search by
// name, content types and owners by username.
import type { Request, Response } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, masterAuth } from '../../engine/test/support/users.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
beforeAll(async () => {
  panel = await startPanel();
  await signIn(panel, 'files');
});
afterAll(() => panel.close());

const pathname = () => decodeURIComponent(new URL(panel.page.url()).pathname);

it('creates a folder and uploads into it with the file input, showing progress while the bytes go out', async () => {
  const { page } = panel;
  await page.getByLabel('New folder').fill('photos');
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByRole('navigation', { name: 'Folder tree' }).getByRole('link', { name: 'photos' }).click();
  await expect.poll(pathname).toBe('/__admin/panel/files/photos');

  // A throttled connection (about 1 MB/s up) so that the upload takes a second: the bar moves in between.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1_000_000,
  });
  const upload = page.getByRole('region', { name: 'Upload' });
  await page
    .getByLabel('Choose files to upload')
    .setInputFiles({ name: 'noise.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(1_500_000, 7) });
  const seen = new Set<number>();
  const bar = upload.getByRole('progressbar', { name: 'Upload progress' });
  await expect
    .poll(
      async () => {
        const value = await bar.getAttribute('value', { timeout: 50 }).catch(() => null);
        if (value !== null) seen.add(Number(value));
        return upload.getByRole('status').textContent();
      },
      { timeout: 10_000 },
    )
    .toBe('Uploaded photos/noise.bin.');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  expect([...seen].some((value) => value > 0 && value < 1_500_000)).toBe(true);
  const row = page.getByRole('row').filter({ hasText: 'noise.bin' });
  await expect.poll(() => row.textContent()).toContain('1.4 MB');
});

it('uploads an image dropped on the zone and previews it resized through the download URL', async () => {
  const { page } = panel;
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c03020' } })
    .png()
    .toBuffer();
  const dataTransfer = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'red square.png', { type: 'image/png' }));
      return transfer;
    },
    [...png],
  );
  const upload = page.getByRole('region', { name: 'Upload' });
  await upload.dispatchEvent('drop', { dataTransfer });
  await expect.poll(() => upload.getByRole('status').textContent()).toBe('Uploaded photos/red square.png.');

  // The tree shows the folder's size and counts.
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  await expect
    .poll(() => tree.getByRole('listitem').filter({ hasText: 'photos' }).last().textContent())
    .toMatch(/photos\s*1\.\d MB · 2 entries, 2 in all/);

  await page.getByRole('link', { name: 'red square.png' }).click();
  await expect.poll(pathname).toBe('/__admin/panel/files/photos/red square.png');
  const preview = page.getByRole('img', { name: 'Preview of red square.png' });
  await expect
    .poll(() => preview.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth, img.naturalHeight]))
    .toEqual([true, 480, 360]);
  expect(await preview.getAttribute('src')).toBe(`/${panel.server.config.storageId}/photos/red%20square.png/r/480x360`);
});

it('downloads under a chosen name, renames, moves and deletes the file', async () => {
  const { page, server } = panel;
  await page.getByLabel('Save as').fill('poster.png');
  const link = page.getByRole('link', { name: 'Download', exact: true });
  const download = await server.request((await link.getAttribute('href'))!);
  expect(download.headers.get('content-disposition')).toContain('filename="poster.png"');

  await page.getByLabel('New name').fill('red.png');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect.poll(pathname).toBe('/__admin/panel/files/photos/red.png');

  await page.getByLabel('Destination folder').fill('archive/2024');
  await page.getByRole('button', { name: 'Move' }).click();
  await expect.poll(pathname).toBe('/__admin/panel/files/archive/2024/red.png');

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect.poll(pathname).toBe('/__admin/panel/files/archive/2024');
  await expect.poll(() => page.getByRole('table').textContent()).toContain('This folder is empty.');
});

it('copies and deletes selected entries of a folder, a non-empty folder only when asked', async () => {
  const { page } = panel;
  await page.getByRole('navigation', { name: 'Location' }).getByRole('link', { name: 'Root' }).click();
  await page.getByLabel('Select photos').check();
  await page.getByLabel('Destination folder').fill('backup');
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  const entries = page.getByRole('table', { name: 'Entries of the root folder' });
  await expect.poll(() => entries.textContent()).toContain('backup/');

  await page.getByLabel('Select backup').check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  const selection = page.getByRole('region', { name: 'Selected entries' });
  await expect
    .poll(() => selection.getByRole('status').first().textContent())
    .toContain('is not empty; set its forced flag');
  await page.getByLabel('Delete folders with everything in them').check();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect.poll(() => entries.textContent()).not.toContain('backup/');
});

it('opens a file without asking for a listing of it: no 4xx in the console or the inspector', async () => {
  const { page, server } = panel;
  const form = new FormData();
  form.set('fileItems[0].fileToUpload', new Blob(['read me']), 'readme.txt');
  form.set('fileItems[0].path', 'docs');
  form.set('fileItems[0].replacing', 'true');
  const master = await masterAuth(server);
  const uploaded = await server.request('/files', {
    method: 'POST',
    headers: { 'X-Service-Storage-Id': server.config.storageId, ...master },
    body: form,
  });
  expect(uploaded.status).toBe(200);
  await server.admin('/__admin/requests', { method: 'DELETE' });
  const failed: string[] = [];
  const listings: string[] = [];
  const watch = (response: Response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  };
  const watchRequest = (request: Request) => {
    if (request.url().endsWith('/files/directoryInfo')) listings.push(request.postData() ?? '');
  };
  page.on('response', watch);
  page.on('request', watchRequest);
  try {
    await openPanel(panel, 'files/docs');
    await page.getByRole('link', { name: 'readme.txt' }).click();
    await page.getByRole('heading', { level: 2, name: 'readme.txt' }).waitFor();
    await openPanel(panel, 'files/docs/readme.txt');
    await page.getByRole('heading', { level: 2, name: 'readme.txt' }).waitFor();
  } finally {
    page.off('response', watch);
    page.off('request', watchRequest);
  }
  expect(failed).toEqual([]);
  expect(listings.filter((body) => body.includes('readme.txt'))).toEqual([]);
  const kept = await server.admin('/__admin/requests?status=4xx');
  expect(((await kept.json()) as { requests: unknown[] }).requests).toEqual([]);
});

it('shows a folder as thumbnails beside the list, finds entries by name below it, with their type and owner by username', async () => {
  const { page, server } = panel;
  const olga = await createUser(server, 'olga');
  const red = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c03020' } })
    .png()
    .toBuffer();
  const form = new FormData();
  const files: [string, string, Blob][] = [
    ['gallery', 'Café.png', new Blob([red], { type: 'image/png' })],
    ['gallery/2024', 'café-at-night.png', new Blob([red], { type: 'image/png' })],
    ['gallery', 'notes.txt', new Blob(['what to shoot'], { type: 'text/plain' })],
  ];
  files.forEach(([folder, name, blob], i) => {
    form.set(`fileItems[${i}].fileToUpload`, blob, name);
    form.set(`fileItems[${i}].path`, folder);
    form.set(`fileItems[${i}].replacing`, 'true');
  });
  const uploaded = await server.request('/files', {
    method: 'POST',
    headers: { 'X-Service-Storage-Id': server.config.storageId, ...olga.auth },
    body: form,
  });
  expect(uploaded.status).toBe(200);

  await openPanel(panel, 'files/gallery');
  const list = page.getByRole('table', { name: 'Entries of /gallery' });
  const row = (name: string) => list.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await row('Café.png').waitFor();
  // The content type and the owner by username, a link to their page with the id in its tooltip.
  expect(await row('Café.png').getByRole('cell').nth(2).textContent()).toBe('image/png');
  expect(await row('notes.txt').getByRole('cell').nth(2).textContent()).toBe('text/plain');
  const owner = row('notes.txt').getByRole('link', { name: 'olga' });
  await owner.waitFor();
  expect(await owner.getAttribute('href')).toBe(`/__admin/panel/users/${olga.userId}`);
  expect(await owner.getAttribute('title')).toBe(`user id ${olga.userId}`);

  // Thumbnails: the images resized by the server, anything else by its type.
  await page.getByRole('group', { name: 'Show as' }).getByRole('button', { name: 'Thumbnails' }).click();
  await expect.poll(() => new URL(page.url()).search).toBe('?view=grid');
  const cards = page.getByRole('list', { name: 'Entries of /gallery' });
  expect(await cards.locator('.file-name').allTextContents()).toEqual(['2024/', 'Café.png', 'notes.txt']);
  expect(await cards.locator('.file-kind').allTextContents()).toEqual(['folder', 'text/plain']);
  // One entry is "1 entry".
  expect(await cards.locator('.file-meta').first().textContent()).toMatch(/^\s*1 entry$/);
  const thumbnail = cards.getByRole('link', { name: 'Café.png' }).locator('img');
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth, img.naturalHeight]))
    .toEqual([true, 160, 120]);
  expect(await thumbnail.getAttribute('src')).toBe(`/${server.config.storageId}/gallery/Caf%C3%A9.png/r/160x160`);

  // Search by name in the folder and below it, case and accents ignored; the view stays.
  await page.getByLabel('Search by name').fill('CAFE');
  await page.getByRole('search', { name: 'Search files' }).getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('CAFE');
  const found = page.getByRole('list', { name: 'Entries named like “CAFE” in /gallery (2)' });
  await expect.poll(() => found.getByRole('link').allTextContents()).toEqual(['2024/café-at-night.png', 'Café.png']);
  await page.getByRole('group', { name: 'Show as' }).getByRole('button', { name: 'List' }).click();
  const rows = page.getByRole('table', { name: 'Entries named like “CAFE” in /gallery (2)' });
  await expect.poll(() => rows.getByRole('link', { name: /café/i }).count()).toBe(2);
  expect(new URL(page.url()).search).toBe('?q=CAFE');

  // A file's page: its type and owner.
  await rows.getByRole('link', { name: '2024/café-at-night.png' }).click();
  await page.getByRole('heading', { level: 2, name: 'café-at-night.png' }).waitFor();
  const facts = await page.locator('dl.facts').textContent();
  expect(facts).toContain('Typeimage/png');
  expect(await page.locator('dl.facts').getByRole('link', { name: 'olga' }).count()).toBe(1);
  const tree = page.getByRole('navigation', { name: 'Folder tree' });
  await expect
    .poll(() =>
      tree
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: '2024', exact: true }) })
        .last()
        .textContent(),
    )
    .toMatch(/ · 1 entry, 1 in all$/);
});
