// The engine without the ffmpeg capability (as in the browser): the simulated transcoder sends the real sequence
// of deliveries and notifications with tiny files. Outbound requests go to an in-memory receiver.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { createEngine, DEFAULT_CONFIG, type Engine } from '@basekit/engine';
import type { TranscoderDelivery } from '../../../packages/sdk/src/transcoder/deliveries.js';
import { Receiver } from './support.js';

const ORIGIN = 'http://receiver.test';
let engine: Engine;
let receiver: Receiver;
let auth: string;

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: auth },
): Promise<Response> {
  return engine.fetch(
    new Request(`http://engine.test${path}`, {
      method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

beforeEach(async () => {
  receiver = new Receiver(mkdtempSync(join(tmpdir(), 'transcoder-simulated-')));
  receiver.url = ORIGIN;
  mkdirSync(join(receiver.root, 'src'));
  writeFileSync(join(receiver.root, 'src/video.mp4'), 'any bytes: the simulation decodes nothing');
  writeFileSync(join(receiver.root, 'src/empty.mp4'), '');
  engine = createEngine({
    config: DEFAULT_CONFIG,
    capabilities: { fetch: (input, init) => receiver.fetch(new Request(input, init)) },
  });
  const login = await engine.fetch(
    new Request('http://engine.test/auth/login', {
      method: 'POST',
      headers: { 'x-service-authentication-id': 'dev-auth-id', 'x-service-authentication-key': 'dev-master-key' },
    }),
  );
  auth = `Bearer ${((await login.json()) as { access_token: string }).access_token}`;
  await call(
    'PATCH',
    '/__admin/transcoder/policy',
    { retryDelayMs: 1 },
    { 'x-service-authentication-key': 'dev-master-key' },
  );
  for (const [kind, body] of Object.entries({
    upload: { name: 'r', default: true, url: `${ORIGIN}/upload` },
    webhook: { name: 'r', default: true, url: `${ORIGIN}/webhook` },
    watermark: { name: 'w', default: true, url: `${ORIGIN}/src/video.mp4`, location: 'TOP_LEFT' },
    thumbnail: { name: 'random', default: true, random: true, count: 3 },
    preset: {
      name: 'vod',
      default: true,
      vod: true,
      encrypt: true,
      vodPlaylistBaseUrl: 'https://cdn.example.com/v',
      outputs: [
        { resolution: '360', videoBitrate: '800k', audioBitrate: '96k' },
        { resolution: '720', videoBitrate: '2M', audioBitrate: '128k' },
      ],
    },
  })) {
    expect((await call('POST', `/metadata/${kind}`, body)).status).toBe(201);
  }
});

async function convert(body: Record<string, unknown>): Promise<{ requestId: string; videoId: string }> {
  const res = await call('POST', '/video/convert', {
    url: `${ORIGIN}/src/video.mp4`,
    upload: true,
    webhook: true,
    ...body,
  });
  expect(res.status).toBe(202);
  return (await res.json()) as { requestId: string; videoId: string };
}

it('sends thumbnails, HLS chunks, the master playlist and downloadable files, then COMPLETE', async () => {
  const { requestId, videoId } = await convert({ preset: true, thumbnail: true, watermark: true });
  const notes = await receiver.notificationsOf(requestId, 2, 10);
  expect(notes.map((n) => `${n.job} ${n.status} ${n.retry}`)).toEqual(['thumbnail COMPLETE 0', 'convert COMPLETE 0']);
  expect(notes[1]!.payload).toEqual({
    videoId,
    vod: true,
    playlist: `${videoId}/playlist.m3u8`,
    qualities: [
      { resolution: '640x360', bandwidth: 896000 },
      { resolution: '1280x720', bandwidth: 2128000 },
    ],
  });

  const delivered = receiver.deliveriesOf(videoId);
  // Files arrive after those they name: segments and keys, the quality playlists, the master, the downloads.
  const stage = (d: TranscoderDelivery) =>
    d.category === 'chunk'
      ? d.path.endsWith('/playlist.m3u8')
        ? 'quality playlist'
        : `file ${d.resolution}`
      : d.category;
  const stages = delivered.map(stage);
  expect([...new Set(stages)]).toEqual([
    'thumbnail',
    expect.stringMatching(/^file/),
    expect.stringMatching(/^file/),
    'quality playlist',
    'playlist',
    'downloadable',
  ]);
  // Per quality: 5 segments of 2 s and the key.
  expect(stages.filter((s) => s === 'file 360')).toHaveLength(6);
  expect(stages.filter((s) => s === 'file 720')).toHaveLength(6);
  expect(stages.filter((s) => s === 'quality playlist')).toHaveLength(2);
  expect(stages.slice(-3)).toEqual(['playlist', 'downloadable', 'downloadable']);
  expect(delivered.find((d) => d.category === 'thumbnail')!.file.type).toBe('image/jpeg');
  expect(readFileSync(join(receiver.root, videoId, '360/playlist.m3u8'), 'utf8')).toContain(
    '#EXT-X-KEY:METHOD=AES-128,URI="enc.key"',
  );
  expect(readFileSync(join(receiver.root, videoId, 'playlist.m3u8'), 'utf8')).toBe(
    [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=896000, RESOLUTION=640x360',
      `https://cdn.example.com/v/${videoId}/360/playlist.m3u8`,
      '#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=2128000, RESOLUTION=1280x720',
      `https://cdn.example.com/v/${videoId}/720/playlist.m3u8`,
      '',
    ].join('\n'),
  );
});

it('sends one converted file per output without VOD, addressed relative to the master without a base URL', async () => {
  await call('POST', '/metadata/preset', {
    name: 'files',
    outputs: [{ resolution: '480', videoBitrate: '1M', audioBitrate: '96k' }],
  });
  const { requestId, videoId } = await convert({ preset: 'files' });
  await receiver.notificationsOf(requestId, 1, 10);
  expect(receiver.deliveriesOf(videoId).map((d) => [d.category, d.file.name])).toEqual([
    ['converted', 'output-1-854x480.mp4'],
  ]);
});

it('rejects thumbnails past the simulated 10 s and still converts', async () => {
  await call('POST', '/metadata/thumbnail', { name: 'late', shots: ['00:00:03', '00:00:12'] });
  const { requestId, videoId } = await convert({ preset: true, thumbnail: 'late' });
  const notes = await receiver.notificationsOf(requestId, 2, 10);
  expect(notes.map((n) => `${n.job} ${n.status}`)).toEqual(['thumbnail THUMBNAIL_REJECTED', 'convert COMPLETE']);
  expect(notes[0]!.payload).toEqual({ videoId, reason: expect.stringContaining('00:00:12') });
  expect(receiver.deliveriesOf(videoId).some((d) => d.category === 'thumbnail')).toBe(false);
});

it('rejects an empty source and retries the notification until it is taken', async () => {
  receiver.failWebhooks = 2;
  const { requestId } = await convert({ url: `${ORIGIN}/src/empty.mp4`, preset: true });
  const [note] = await receiver.notificationsOf(requestId, 1, 10);
  expect(note).toMatchObject({
    status: 'REJECTED',
    job: 'convert',
    retry: '2',
    payload: { reason: expect.stringContaining('the source could not be used') },
  });
  const jobs = (await (
    await call('GET', '/__admin/jobs', undefined, { 'x-service-authentication-key': 'dev-master-key' })
  ).json()) as { jobs: { detail?: string }[] };
  expect(jobs.jobs.at(-1)!.detail).toContain('the source is empty');
});
