// Conversions on the real ffmpeg, through HTTP: deliveries, notifications, retries, limits and clean-up.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { downloadPath, storageClient } from '../files/support.js';
import { FFMPEG, programPath } from '../../../test/support/programs.js';
import { Receiver, makeVideo, makeWatermark, pixelAt, probe, transcoderClient } from './support.js';

// Jobs work under the system temporary folder: give this file its own, to see that they clean up.
const systemTmp = tmpdir();
const scratch = mkdtempSync(join(systemTmp, 'transcoder-jobs-'));
process.env['TMPDIR'] = scratch;

let server: TestServer;
let receiver: Receiver;
let post: ReturnType<typeof transcoderClient>;
let editor: Record<string, string>;

beforeAll(async () => {
  receiver = await new Receiver(mkdtempSync(join(systemTmp, 'transcoder-files-'))).listen();
  makeVideo(join(receiver.root, 'src/video.mp4'), { seconds: 4 });
  makeVideo(join(receiver.root, 'src/black.mp4'), { seconds: 1, audio: false, picture: 'color=c=black' });
  makeWatermark(join(receiver.root, 'src/mark.png'));
  writeFileSync(join(receiver.root, 'src/notes.txt'), 'this is not a video');
  server = await startTestServer();
  editor = (await createUser(server, 'editor')).auth;
  post = transcoderClient(server, editor);
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});

beforeEach(async () => {
  await server.admin('/__admin/transcoder/policy', {
    method: 'PATCH',
    body: JSON.stringify({ retryDelayMs: 10, deliveryAttempts: 5, timeLimitMs: 120_000 }),
  });
  for (const [kind, body] of Object.entries({
    upload: {
      name: 'receiver',
      default: true,
      url: `${receiver.url}/upload`,
      headers: { 'x-delivery-secret': 's3cret' },
    },
    webhook: { name: 'receiver', default: true, url: `${receiver.url}/webhook` },
    watermark: {
      name: 'corner',
      default: true,
      url: `${receiver.url}/src/mark.png`,
      location: 'BOTTOM_RIGHT',
      paddingX: 8,
      paddingY: 8,
    },
    thumbnail: { name: 'two', default: true, shots: ['00:00:01', '00:00:03'] },
    preset: {
      name: 'files',
      default: true,
      speed: 'ultrafast',
      outputs: [
        { resolution: '120', videoBitrate: '150k', audioBitrate: '48k' },
        { resolution: '160x120', videoBitrate: '200k', audioBitrate: '48k' },
      ],
    },
  })) {
    expect((await post(`/metadata/${kind}`, body)).ok).toBe(true);
  }
});

async function convert(body: Record<string, unknown>): Promise<{ requestId: string; videoId: string }> {
  const res = await post('/video/convert', { upload: true, webhook: true, ...body });
  expect(res.status).toBe(202);
  return (await res.json()) as { requestId: string; videoId: string };
}

async function jobOf(requestId: string): Promise<Record<string, unknown>> {
  const { jobs } = (await (await server.admin('/__admin/jobs')).json()) as { jobs: Record<string, unknown>[] };
  return jobs.find((j) => j['requestId'] === requestId)!;
}

describe('conversion with ffmpeg', () => {
  it('delivers thumbnails and one watermarked file per output, then COMPLETE, and removes its files', async () => {
    const { requestId, videoId } = await convert({
      url: `${receiver.url}/src/video.mp4`,
      preset: true,
      thumbnail: true,
      watermark: true,
    });
    const notes = await receiver.notificationsOf(requestId, 2);
    expect(notes.map((n) => [n.job, n.status])).toEqual([
      ['thumbnail', 'COMPLETE'],
      ['convert', 'COMPLETE'],
    ]);
    expect(notes[0]).toMatchObject({
      requestId,
      retry: '0',
      payload: { videoId, count: 2 },
      queueId: expect.any(String),
    });
    expect(notes[1]!.payload).toMatchObject({
      videoId,
      vod: false,
      qualities: [
        { resolution: '160x120', bandwidth: 198000 },
        { resolution: '160x120', bandwidth: 248000 },
      ],
    });

    const delivered = receiver.deliveriesOf(videoId);
    expect(delivered.map((d) => d.category)).toEqual(['thumbnail', 'thumbnail', 'converted', 'converted']);
    expect(receiver.uploadHeaders.at(-1)!.get('x-delivery-secret')).toBe('s3cret');
    const thumb = probe(join(receiver.root, videoId, delivered[0]!.file.name));
    expect([thumb.width, thumb.height]).toEqual([320, 240]);
    for (const d of delivered.slice(2)) {
      const video = probe(join(receiver.root, videoId, d.file.name));
      expect([video.width, video.height, video.codecs]).toEqual([160, 120, ['h264', 'aac']]);
      expect(video.duration).toBeGreaterThan(3.5);
    }
    expect(readdirSync(scratch)).toEqual([]);
    expect(await jobOf(requestId)).toMatchObject({ state: 'complete', deliveries: { delivered: 4, failed: 0 } });
  });

  it('sends each delivery as one multipart body of its own: the fields, then the file, with a length', async () => {
    // A plain Node server keeps the raw requests: the body is built by hand, so a standard parser must read it.
    const requests: { headers: Record<string, string | string[] | undefined>; body: Buffer }[] = [];
    const raw = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        requests.push({ headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((listening) => raw.listen(0, '127.0.0.1', listening));
    try {
      const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/upload`;
      await post('/metadata/upload', { name: 'raw', url, headers: { 'x-delivery-secret': 's3cret' } });
      const { requestId, videoId } = await convert({
        url: `${receiver.url}/src/video.mp4`,
        upload: 'raw',
        thumbnail: true,
      });
      expect((await receiver.notificationsOf(requestId, 1))[0]!.status).toBe('COMPLETE');
      expect(requests).toHaveLength(2);
      const boundaries = requests.map(({ headers, body }) => {
        const type = String(headers['content-type']);
        expect(type).toMatch(/^multipart\/form-data; boundary=basekit-[0-9a-f]{48}$/);
        expect(headers['content-length']).toBe(String(body.length));
        expect(headers['x-delivery-secret']).toBe('s3cret');
        return type;
      });
      expect(new Set(boundaries).size).toBe(2);
      // The files of one batch go side by side, so they may arrive in either order.
      const forms = await Promise.all(
        requests.map(({ headers, body }) =>
          new Response(new Uint8Array(body), {
            headers: { 'content-type': String(headers['content-type']) },
          }).formData(),
        ),
      );
      const files = forms.map((form) => form.get('file') as File).sort((a, b) => a.name.localeCompare(b.name));
      expect(files.map((file) => [file.name, file.type])).toEqual([
        ['thumbnail-001.jpg', 'image/jpeg'],
        ['thumbnail-002.jpg', 'image/jpeg'],
      ]);
      for (const form of forms) {
        expect([...form.keys()]).toEqual(['requestId', 'videoId', 'thumbnail', 'file']);
        expect([form.get('requestId'), form.get('videoId'), form.get('thumbnail')]).toEqual([
          requestId,
          videoId,
          'true',
        ]);
      }
      for (const file of files)
        expect([...new Uint8Array(await file.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
    } finally {
      await new Promise((closed) => raw.close(closed));
    }
  });

  it('cuts VOD into AES-128 HLS per quality with a master playlist and downloadable files', async () => {
    expect(
      (
        await post('/metadata/preset', {
          name: 'vod',
          vod: true,
          encrypt: true,
          speed: 'ultrafast',
          vodPlaylistBaseUrl: 'https://cdn.example.com/videos/',
          outputs: [
            { resolution: '120', videoBitrate: '150k', audioBitrate: '48k' },
            { resolution: '180', videoBitrate: '250k', audioBitrate: '64k' },
          ],
        })
      ).status,
    ).toBe(201);
    // A job's time limit is one AbortSignal, which each of its many deliveries follows while it runs, and only then.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/video.mp4`, preset: 'vod' });
    const [done] = await receiver.notificationsOf(requestId, 1);
    process.off('warning', onWarning);
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    expect(receiver.deliveriesOf(videoId).length).toBeGreaterThan(10);
    expect(done).toMatchObject({
      status: 'COMPLETE',
      job: 'convert',
      payload: { vod: true, playlist: `${videoId}/playlist.m3u8` },
    });

    const delivered = receiver.deliveriesOf(videoId);
    const categories = delivered.map((d) => d.category);
    expect(categories.slice(-3)).toEqual(['playlist', 'downloadable', 'downloadable']);
    const chunks = delivered.filter((d) => d.category === 'chunk');
    expect(new Set(chunks.map((d) => d.resolution))).toEqual(new Set(['120', '180']));
    expect(chunks.map((d) => d.path)).toContain(`${videoId}/180/enc.key`);

    const master = readFileSync(join(receiver.root, videoId, 'playlist.m3u8'), 'utf8');
    expect(master).toContain(
      `#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=198000, RESOLUTION=160x120\nhttps://cdn.example.com/videos/${videoId}/120/playlist.m3u8`,
    );
    expect(master).toContain(
      `#EXT-X-STREAM-INF:PROGRAM-ID=1, BANDWIDTH=314000, RESOLUTION=240x180\nhttps://cdn.example.com/videos/${videoId}/180/playlist.m3u8`,
    );
    const quality = readFileSync(join(receiver.root, videoId, '180/playlist.m3u8'), 'utf8');
    expect(quality).toContain('#EXT-X-KEY:METHOD=AES-128,URI="enc.key"');
    expect(readFileSync(join(receiver.root, videoId, '180/enc.key'))).toHaveLength(16);
    for (const segment of quality.split('\n').filter((l) => l.endsWith('.ts'))) {
      expect(readdirSync(join(receiver.root, videoId, '180'))).toContain(segment);
    }
    // Deliveries of one batch go several at a time: pick the 120p download by its name, not by its arrival.
    const downloads = delivered.filter((d) => d.category === 'downloadable').map((d) => d.file.name);
    expect(downloads.sort()).toEqual(['120p.mp4', '180p.mp4']);
    expect(probe(join(receiver.root, videoId, '120p.mp4')).height).toBe(120);
    expect(probe(join(receiver.root, videoId, '180p.mp4')).height).toBe(180);

    // One command writes each quality's MP4 and HLS from the same packets: no second run reads the MP4s back.
    const log = (await jobOf(requestId))['log'] as { command: string }[];
    expect(log.map(({ command }) => command.split(' ')[0]!.split('/').pop())).toEqual(['ffprobe', 'ffmpeg']);
    expect(log[1]!.command).toMatch(
      / -f tee '\[f=hls:[^ ]*hls_key_info_file=[^ ]*\]convert-\d+\/hls\/120\/playlist\.m3u8\|/,
    );
    // Its segments are those a stream copy of the MP4 gives (AES-CBC pads each to 16 bytes): no more overhead.
    const copy = mkdtempSync(join(systemTmp, 'transcoder-copy-'));
    execFileSync(programPath(FFMPEG), [
      ...['-hide_banner', '-loglevel', 'error', '-i', join(receiver.root, videoId, '180p.mp4'), '-c', 'copy'],
      ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', join(copy, 'playlist.m3u8')],
    ]);
    const sizes = (folder: string) =>
      readdirSync(folder)
        .filter((name) => name.endsWith('.ts'))
        .sort()
        .map((name) => statSync(join(folder, name)).size);
    const copied = sizes(copy);
    const overhead = sizes(join(receiver.root, videoId, '180')).map((size, i) => size - (copied[i] ?? 0));
    expect(overhead).toHaveLength(copied.length);
    expect(overhead.every((bytes) => bytes > 0 && bytes <= 16)).toBe(true);
  });

  // A 40x20 red mark on a black 320x240 video, 8 pixels from the edges: [location, centre of the mark].
  it.each([
    ['TOP_LEFT', 28, 18],
    ['TOP_CENTER', 160, 18],
    ['TOP_RIGHT', 292, 18],
    ['BOTTOM_LEFT', 28, 222],
    ['BOTTOM_CENTER', 160, 222],
    ['BOTTOM_RIGHT', 292, 222],
  ])('draws the watermark at %s with its padding', async (location, x, y) => {
    await post('/metadata/watermark', {
      name: 'placed',
      url: `${receiver.url}/src/mark.png`,
      location,
      paddingX: 8,
      paddingY: 8,
    });
    await post('/metadata/preset', {
      name: 'full',
      speed: 'ultrafast',
      outputs: [{ resolution: '240', videoBitrate: '300k', audioBitrate: '64k' }],
    });
    const { requestId, videoId } = await convert({
      url: `${receiver.url}/src/black.mp4`,
      preset: 'full',
      watermark: 'placed',
    });
    expect((await receiver.notificationsOf(requestId, 1))[0]!.status).toBe('COMPLETE');
    const pixel = pixelAt(join(receiver.root, videoId, receiver.deliveriesOf(videoId)[0]!.file.name), 0.5);
    const [r = 0, g = 0] = pixel(x, y);
    expect(r).toBeGreaterThan(100);
    expect(g).toBeLessThan(60);
    // Nothing drawn at the point mirrored through the centre.
    expect(pixel(319 - x, 239 - y)[0]).toBeLessThan(40);
  });

  it('encodes with x265, a profile and raw ffmpeg parameters', async () => {
    await post('/metadata/preset', {
      name: 'hevc',
      videoEncoder: 'x265',
      profile: 'main',
      speed: 'ultrafast',
      rawParameters: { '-metadata': 'title=basekit test' },
      outputs: [{ resolution: '120', videoBitrate: '150k', audioBitrate: '48k' }],
    });
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/video.mp4`, preset: 'hevc' });
    expect((await receiver.notificationsOf(requestId, 1))[0]!.status).toBe('COMPLETE');
    const video = probe(join(receiver.root, videoId, receiver.deliveriesOf(videoId)[0]!.file.name));
    expect(video).toMatchObject({ codecs: ['hevc', 'aac'], height: 120, title: 'basekit test' });
  });

  it("converts a file of this server's own storage", async () => {
    const [saved] = await storageClient(server, editor).put([
      { name: 'clip.mp4', path: 'videos', content: readFileSync(join(receiver.root, 'src/video.mp4')) },
    ]);
    const { requestId } = await convert({ url: `${server.url}${downloadPath(server, saved!)}`, thumbnail: true });
    expect((await receiver.notificationsOf(requestId, 1))[0]).toMatchObject({
      status: 'COMPLETE',
      payload: { count: 2 },
    });
  });

  it('takes as many random thumbnails as asked, even more than one per second', async () => {
    await post('/metadata/thumbnail', { name: 'many', random: true, count: 30 });
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: 'many' });
    expect((await receiver.notificationsOf(requestId, 1))[0]).toMatchObject({
      status: 'COMPLETE',
      payload: { count: 30 },
    });
    expect(receiver.deliveriesOf(videoId).filter((d) => d.category === 'thumbnail')).toHaveLength(30);
  });

  it('cuts HLS from a video without sound', async () => {
    await post('/metadata/preset', {
      name: 'silent',
      vod: true,
      speed: 'ultrafast',
      outputs: [{ resolution: '120', videoBitrate: '100k', audioBitrate: '32k' }],
    });
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/black.mp4`, preset: 'silent' });
    expect((await receiver.notificationsOf(requestId, 1))[0]!.status).toBe('COMPLETE');
    expect(readFileSync(join(receiver.root, videoId, '120/playlist.m3u8'), 'utf8')).toContain('seg_000.ts');
    expect(probe(join(receiver.root, videoId, '120/seg_000.ts')).codecs).toEqual(['h264']);
  });

  it('rejects thumbnails past the end of the video with THUMBNAIL_REJECTED', async () => {
    await post('/metadata/thumbnail', { name: 'late', interval: 2, count: 4, startTime: 1 });
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: 'late' });
    const [note] = await receiver.notificationsOf(requestId, 1);
    expect(note).toMatchObject({
      status: 'THUMBNAIL_REJECTED',
      job: 'thumbnail',
      payload: { videoId, reason: expect.stringContaining('00:00:05, 00:00:07') },
    });
    expect(receiver.deliveriesOf(videoId)).toEqual([]);
  });

  it.each([
    ['unreachable', 'http://127.0.0.1:9/video.mp4', 'unreachable'],
    ['missing', '/src/nothing.mp4', 'answered 404'],
    ['not a video', '/src/notes.txt', 'not a readable video'],
  ])('rejects a source that is %s, saying what happened in the admin job view only', async (_, path, detail) => {
    const { requestId, videoId } = await convert({
      url: path.startsWith('/') ? `${receiver.url}${path}` : path,
      preset: true,
      thumbnail: true,
    });
    const [note] = await receiver.notificationsOf(requestId, 1);
    const reason = expect.stringMatching(/^the source could not be used: its address must answer 2xx/);
    expect(note).toMatchObject({ status: 'REJECTED', job: 'convert', payload: { videoId, reason } });
    expect(note!.payload['reason']).not.toContain(detail);
    expect(await jobOf(requestId)).toMatchObject({
      state: 'rejected',
      reason,
      detail: expect.stringContaining(detail),
    });
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('retries failed deliveries with the retry count, and records the outcome', async () => {
    receiver.failUploads = 2;
    receiver.failWebhooks = 1;
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: true });
    const [note] = await receiver.notificationsOf(requestId, 1);
    expect(note).toMatchObject({ status: 'COMPLETE', retry: '1' });
    expect(receiver.deliveriesOf(videoId)).toHaveLength(2);
    await expect
      .poll(() => jobOf(requestId))
      .toMatchObject({
        state: 'complete',
        deliveries: { delivered: 2, failed: 0, retries: 2 },
        notifications: [{ status: 'COMPLETE', job: 'thumbnail', attempts: 2, delivered: true }],
      });
    // Each call with every try and its answer, for the admin job view.
    const tries = (statuses: number[]) =>
      statuses.map((status) => ({ at: expect.any(String), ms: expect.any(Number), status }));
    const thumbnailCall = (file: string) => ({
      kind: 'upload',
      url: `${receiver.url}/upload`,
      file,
      fields: { thumbnail: true },
      delivered: true,
      tries: tries([503, 204]),
    });
    expect((await jobOf(requestId))['calls']).toEqual([
      thumbnailCall('thumbnail-001.jpg'),
      thumbnailCall('thumbnail-002.jpg'),
      {
        kind: 'webhook',
        url: `${receiver.url}/webhook`,
        status: 'COMPLETE',
        job: 'thumbnail',
        delivered: true,
        tries: tries([503, 204]),
      },
    ]);
  });

  it('keeps the settings a job used and the commands ffmpeg ran with their log, in the admin job view', async () => {
    const { requestId } = await convert({ url: `${receiver.url}/src/video.mp4`, preset: true, thumbnail: true });
    await receiver.notificationsOf(requestId, 2);
    const job = await jobOf(requestId);
    expect(Object.keys(job['settings'] as object).sort()).toEqual(['preset', 'thumbnail', 'upload', 'webhook']);
    expect(job['settings']).toMatchObject({
      upload: { name: 'receiver', headers: { 'x-delivery-secret': 's3cret' } },
      preset: { name: 'files', speed: 'ultrafast' },
    });
    const log = job['log'] as { command: string; ms: number; exitCode: number; output: string; endedAt: string }[];
    // One decode of the source makes the renditions and the thumbnails.
    expect(log.map((run) => run.command.split(' ')[0]!.split('/').pop())).toEqual(['ffprobe', 'ffmpeg']);
    expect(log.every((run) => run.exitCode === 0 && run.ms >= 0 && run.endedAt)).toBe(true);
    // The encoding's own log: the encoder and its summary, at ffmpeg's usual level.
    expect(log[1]!.command).toMatch(/-filter_complex '\[0:v\]split=2\[frames\]\[main\];\[frames\]select=/);
    expect(log[1]!.command).toMatch(/%03d\.jpg$/);
    expect(log[1]!.output).toMatch(/libx264/);
  });

  it('makes renditions, thumbnails and the watermark in one decode of the source', async () => {
    const { requestId, videoId } = await convert({
      url: `${receiver.url}/src/video.mp4`,
      preset: true,
      thumbnail: true,
      watermark: true,
    });
    expect((await receiver.notificationsOf(requestId, 2)).map((n) => n.status)).toEqual(['COMPLETE', 'COMPLETE']);
    const log = (await jobOf(requestId))['log'] as { command: string }[];
    const decodes = log.filter(({ command }) => / -i [^ ]*\/source /.test(command));
    expect(decodes).toHaveLength(1);
    expect(decodes[0]!.command).toContain('/watermark');
    expect(receiver.deliveriesOf(videoId).map((d) => d.category)).toEqual([
      'thumbnail',
      'thumbnail',
      'converted',
      'converted',
    ]);
  });

  it('still delivers the thumbnails when the conversion fails (they are then made apart)', async () => {
    await post('/metadata/watermark', { name: 'text', url: `${receiver.url}/src/notes.txt`, location: 'TOP_LEFT' });
    const { requestId, videoId } = await convert({
      url: `${receiver.url}/src/video.mp4`,
      preset: true,
      thumbnail: true,
      watermark: 'text',
    });
    const notes = await receiver.notificationsOf(requestId, 2);
    expect(notes.map((n) => [n.job, n.status])).toEqual([
      ['thumbnail', 'COMPLETE'],
      ['convert', 'REJECTED'],
    ]);
    expect(receiver.deliveriesOf(videoId).map((d) => d.category)).toEqual(['thumbnail', 'thumbnail']);
    const log = (await jobOf(requestId))['log'] as { exitCode: number }[];
    // The one command failed; then the thumbnails alone, and the conversion alone, which failed again.
    expect(log.map((run) => run.exitCode === 0)).toEqual([true, false, true, false]);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('ends REJECTED when every try of a delivery fails', async () => {
    await server.admin('/__admin/transcoder/policy', {
      method: 'PATCH',
      body: JSON.stringify({ deliveryAttempts: 2 }),
    });
    receiver.failUploads = 3;
    const { requestId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: true });
    const [note] = await receiver.notificationsOf(requestId, 1);
    receiver.failUploads = 0;
    expect(note).toMatchObject({
      status: 'THUMBNAIL_REJECTED',
      payload: { reason: '1 upload deliveries failed: the upload address did not accept them' },
    });
    await expect
      .poll(() => jobOf(requestId))
      .toMatchObject({
        state: 'rejected',
        deliveries: { delivered: 1, failed: 1, retries: 2 },
        lastDeliveryError: expect.stringContaining('answered 503'),
      });
  });

  it('stops a job at its time limit', async () => {
    await server.admin('/__admin/transcoder/policy', { method: 'PATCH', body: JSON.stringify({ timeLimitMs: 300 }) });
    // A source that starts sending and never finishes.
    const slow = createServer((_, res) => res.write('0'.repeat(100)));
    await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done));
    try {
      const { requestId } = await convert({
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/video.mp4`,
        preset: true,
      });
      const [note] = await receiver.notificationsOf(requestId, 1);
      expect(note).toMatchObject({ status: 'REJECTED', payload: { reason: expect.stringContaining('time limit') } });
      expect(readdirSync(scratch)).toEqual([]);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});

describe('without ffmpeg', () => {
  it('still stores settings, and answers convert with 503 code 701', async () => {
    process.env['FFMPEG_PATH'] = '/nonexistent/ffmpeg';
    const bare = await startTestServer();
    delete process.env['FFMPEG_PATH'];
    try {
      const send = transcoderClient(bare, (await createUser(bare, 'bare')).auth);
      expect((await send('/metadata/upload', { name: 'u', default: true, url: 'https://example.com/up' })).status).toBe(
        201,
      );
      const res = await send('/video/convert', { url: 'https://example.com/in.mp4', upload: true, thumbnail: true });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        code: 701,
        error: expect.stringContaining('FFMPEG_PATH=/nonexistent/ffmpeg'),
      });
    } finally {
      await bare.close();
    }
  });
});
