// The Transcoder page in Chromium against a real server with ffmpeg: save a preset, convert a tiny generated video
// to HLS, follow the job to COMPLETE with its log and calls, and play the result in the page (hls.js, loaded only
// then). Deliveries land on a local receiver that serves them back with CORS, as a CDN in front of an app would.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser, masterAuth } from '../../engine/test/support/users.js';
import { Receiver, makeVideo, transcoderClient } from '../../../mock-server/test/transcoder/support.js';
import { openPanel, signIn, startPanel, type PanelTest } from './support.js';

let panel: PanelTest;
let receiver: Receiver;

beforeAll(async () => {
  receiver = new Receiver(mkdtempSync(join(tmpdir(), 'panel-transcoder-')));
  const receive = receiver.fetch;
  receiver.fetch = async (request) => {
    const answer = await receive(request);
    const headers = new Headers(answer.headers);
    headers.set('access-control-allow-origin', '*');
    return new Response(answer.body, { status: answer.status, headers });
  };
  await receiver.listen();
  makeVideo(join(receiver.root, 'src/clip.mp4'), { seconds: 2, size: '160x120' });
  panel = await startPanel();
  const post = transcoderClient(panel.server, await masterAuth(panel.server));
  expect(
    (await post('/metadata/upload', { name: 'receiver', default: true, url: `${receiver.url}/upload` })).status,
  ).toBe(201);
  expect((await post('/metadata/webhook', { name: 'hooks', url: `${receiver.url}/webhook` })).status).toBe(201);
  expect((await post('/metadata/thumbnail', { name: 'one', shots: ['00:00:01'] })).status).toBe(201);
  await signIn(panel);
});
afterAll(async () => {
  await panel?.close();
  await receiver?.close();
});

it('saves a preset, converts a video, shows the job with its log, calls and thumbnail, and plays the result with hls.js', async () => {
  const { page } = panel;
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
  await openPanel(panel, 'transcoder');

  const preset = {
    name: 'tiny',
    default: true,
    vod: true,
    speed: 'ultrafast',
    vodPlaylistBaseUrl: `${receiver.url}/`,
    outputs: [{ resolution: '96', videoBitrate: '100k', audioBitrate: '32k' }],
  };
  await page.getByLabel('Kind').selectOption('preset');
  await page.getByLabel('Record (JSON)').fill(JSON.stringify(preset));
  await page.getByRole('button', { name: 'Save setting' }).click();
  await expect
    .poll(() => page.getByRole('table', { name: 'Preset settings' }).textContent())
    .toContain('"vodPlaylistBaseUrl"');

  await page.getByLabel('Source address').fill(`${receiver.url}/src/clip.mp4`);
  await page.getByLabel('Webhook setting').selectOption('hooks');
  await page.getByLabel('Thumbnail setting').selectOption('one');
  await page.getByRole('button', { name: 'Convert', exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/__admin\/panel\/transcoder\/jobs\/\w+$/);
  const title = page.getByRole('heading', { level: 2, name: /^Job / });
  await expect.poll(() => title.textContent(), { timeout: 60_000 }).toMatch(/complete$/);

  // ffmpeg's commands with their log, and every call with its answer.
  await page
    .getByText(/^ffmpeg: exit 0 after \d+ ms$/)
    .first()
    .click();
  expect(await page.getByLabel('Output of command 2').textContent()).toMatch(/libx264|Output #0/);
  const calls = page.getByRole('table', { name: 'Calls the job made, with every try and its answer' });
  expect(await calls.getByRole('row').filter({ hasText: 'webhook: convert COMPLETE' }).textContent()).toContain(
    'answered 204',
  );
  expect(await calls.getByRole('row').filter({ hasText: 'upload: master playlist' }).textContent()).toMatch(
    /\/playlist\.m3u8.*answered 204/,
  );

  // The thumbnail where the receiver serves it (the preset's vodPlaylistBaseUrl).
  const thumbnail = page.getByRole('img', { name: 'Thumbnail thumbnail-001.jpg' });
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);

  expect(scripts.filter((url) => /hls/i.test(url))).toEqual([]);
  await page.getByRole('button', { name: 'Play the converted video' }).click();
  const video = page.getByLabel(/^Converted video /);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState >= 2 || v.currentTime > 0), { timeout: 20_000 })
    .toBe(true);
  expect(scripts.filter((url) => /hls/i.test(url))).toHaveLength(1);
}, 90_000);

it("sums up a rejected job's calls as they ended: a webhook that answered 503 and then 204 is delivered", async () => {
  const { page, server } = panel;
  await server.admin('/__admin/transcoder/policy', {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ deliveryAttempts: 2, retryDelayMs: 0 }),
  });
  receiver.failWebhooks = 1;
  const convert = await transcoderClient(server, await masterAuth(server))('/video/convert', {
    url: 'http://127.0.0.1:9/nothing-listens.mp4',
    thumbnail: 'one',
    upload: 'receiver',
    webhook: 'hooks',
  });
  expect(convert.status).toBe(202);
  const { requestId } = (await convert.json()) as { requestId: string };
  await openPanel(panel, `transcoder/jobs/${requestId}`);
  const title = page.getByRole('heading', { level: 2, name: /^Job / });
  await expect.poll(() => title.textContent(), { timeout: 20_000 }).toMatch(/rejected$/);

  const calls = page.getByRole('table', { name: 'Calls the job made, with every try and its answer' });
  await expect
    .poll(() => calls.getByRole('row').filter({ hasText: 'webhook: thumbnail REJECTED' }).textContent())
    .toMatch(/answered 503.*answered 204.*yes/);
  const facts = page.getByRole('definition');
  expect(await facts.allTextContents()).toContain('1 delivered after 1 retry, none failed');
  expect(await page.getByRole('article').textContent()).not.toContain('0 delivered, 0 failed, 0 retries');
  // The 503 was answered before a success: it is a try of the call, not an error of the job.
  expect(await page.getByRole('term').allTextContents()).not.toContain('Last delivery error');
}, 60_000);

it("names a user's jobs and settings by their username, a link to their page", async () => {
  const { page, server } = panel;
  const tess = await createUser(server, 'tess');
  const post = transcoderClient(server, tess.auth);
  expect((await post('/metadata/thumbnail', { name: 'tess-shots', shots: ['00:00:01'] })).status).toBe(201);
  expect((await post('/metadata/upload', { name: 'tess-receiver', url: `${receiver.url}/upload` })).status).toBe(201);
  const convert = await post('/video/convert', {
    url: 'http://127.0.0.1:9/nothing-listens.mp4',
    thumbnail: 'tess-shots',
    upload: 'tess-receiver',
  });
  expect(convert.status).toBe(202);
  const { requestId } = (await convert.json()) as { requestId: string };
  await openPanel(panel, 'transcoder');
  const jobs = page.getByRole('table', { name: 'Conversion jobs, newest first' });
  const by = jobs
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: requestId }) })
    .getByRole('link', { name: 'tess' });
  await by.waitFor();
  expect(await by.getAttribute('href')).toBe(`/__admin/panel/users/${tess.userId}`);
  expect(await by.getAttribute('title')).toBe(`user id ${tess.userId}`);
  const setting = page
    .getByRole('table', { name: 'Thumbnail settings' })
    .getByRole('row')
    .filter({ hasText: 'tess-shots' });
  expect(await setting.getByRole('link', { name: 'tess' }).count()).toBe(1);
  await jobs.getByRole('link', { name: requestId }).click();
  await page.getByRole('heading', { level: 2, name: /^Job / }).waitFor();
  expect(await page.getByRole('definition').getByRole('link', { name: 'tess' }).count()).toBe(1);
  expect(await page.getByText(tess.userId).count()).toBe(0);
});
