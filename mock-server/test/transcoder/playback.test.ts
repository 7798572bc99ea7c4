// End to end: a generated video goes through the real transcoder, every delivery lands on a local receiver, and
// headless Chromium plays the stored master playlist with hls.js to the end.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../../../test/support/chromium.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { Receiver, makeVideo, makeWatermark, transcoderClient } from './support.js';

const PLAYER = `<!doctype html>
<video muted playsinline></video>
<canvas width="64" height="48"></canvas>
<script src="/hls.min.js"></script>
<script>
  // Plays the master playlist of ?src to the end; resolves with the qualities, times seen and two frame grabs.
  window.result = new Promise((resolve, reject) => {
    const video = document.querySelector('video');
    const canvas = document.querySelector('canvas').getContext('2d', { willReadFrequently: true });
    const grab = () => (canvas.drawImage(video, 0, 0, 64, 48), Array.from(canvas.getImageData(0, 0, 64, 48).data));
    const hls = new Hls();
    const seen = { heights: [], times: [], frames: [] };
    hls.on(Hls.Events.ERROR, (_, data) => data.fatal && reject(new Error('hls.js: ' + data.details)));
    hls.on(Hls.Events.MANIFEST_PARSED, (_, data) => {
      seen.heights = data.levels.map((level) => level.height);
      video.playbackRate = 2;
      video.play().catch(reject);
    });
    video.addEventListener('timeupdate', () => {
      seen.times.push(video.currentTime);
      if ((seen.frames.length === 0 && video.currentTime > 0.5) || (seen.frames.length === 1 && video.currentTime > 4)) seen.frames.push(grab());
    });
    video.addEventListener('ended', () => resolve({ ...seen, ended: true, duration: video.duration }));
    hls.loadSource(new URLSearchParams(location.search).get('src'));
    hls.attachMedia(video);
  });
</script>`;

let server: TestServer;
let receiver: Receiver;
let browser: Browser;

beforeAll(async () => {
  receiver = await new Receiver(mkdtempSync(join(tmpdir(), 'transcoder-playback-'))).listen();
  makeVideo(join(receiver.root, 'src/video.mp4'), { seconds: 6 });
  makeWatermark(join(receiver.root, 'src/mark.png'));
  writeFileSync(join(receiver.root, 'player.html'), PLAYER);
  server = await startTestServer();
  browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await receiver?.close();
});

it('converts a video to a two-quality HLS ladder that plays to the end in Chromium', async () => {
  const post = transcoderClient(server, (await createUser(server, 'viewer')).auth);
  const settings = {
    upload: { name: 'here', url: `${receiver.url}/upload` },
    webhook: { name: 'here', url: `${receiver.url}/webhook` },
    watermark: { name: 'logo', url: `${receiver.url}/src/mark.png`, location: 'TOP_RIGHT', paddingX: 10, paddingY: 10 },
    thumbnail: { name: 'every2s', interval: 2, count: 3, startTime: 0 },
    preset: {
      name: 'ladder',
      vod: true,
      speed: 'ultrafast',
      vodPlaylistBaseUrl: `${receiver.url}/`,
      outputs: [
        { resolution: '144', videoBitrate: '200k', audioBitrate: '64k' },
        { resolution: '240', videoBitrate: '400k', audioBitrate: '64k' },
      ],
    },
  };
  for (const [kind, body] of Object.entries(settings)) expect((await post(`/metadata/${kind}`, body)).status).toBe(201);
  const res = await post('/video/convert', {
    url: `${receiver.url}/src/video.mp4`,
    upload: 'here',
    webhook: 'here',
    watermark: 'logo',
    thumbnail: 'every2s',
    preset: 'ladder',
  });
  const { requestId, videoId } = (await res.json()) as { requestId: string; videoId: string };

  const notes = await receiver.notificationsOf(requestId, 2);
  expect(notes.map((n) => `${n.job} ${n.status}`)).toEqual(['thumbnail COMPLETE', 'convert COMPLETE']);
  const categories = receiver.deliveriesOf(videoId).map((d) => d.category);
  expect(categories.filter((c) => c === 'thumbnail')).toHaveLength(3);
  expect(categories.filter((c) => c === 'playlist')).toHaveLength(1);
  expect(categories.filter((c) => c === 'downloadable')).toHaveLength(2);

  const page = await browser.newPage();
  await page.goto(`${receiver.url}/player.html?src=${encodeURIComponent(`${receiver.url}/${videoId}/playlist.m3u8`)}`);
  const played = (await page.evaluate('window.result')) as {
    heights: number[];
    times: number[];
    frames: number[][];
    ended: boolean;
    duration: number;
  };
  expect(played.heights).toEqual([144, 240]);
  expect(played.ended).toBe(true);
  expect(played.duration).toBeGreaterThan(5.5);
  expect(Math.max(...played.times)).toBeGreaterThan(5.5);
  expect(played.frames).toHaveLength(2);
  expect(played.frames[0]).not.toEqual(played.frames[1]);
});
