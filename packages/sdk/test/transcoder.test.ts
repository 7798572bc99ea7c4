import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG, programPath } from '../../../test/support/programs.js';
import {
  ValidationError,
  createDeliveryReceiver,
  parseNotification,
  type Client,
  type TranscoderDelivery,
  type TranscoderNotification,
} from '../src/index.js';
import { rejection, startTestServer, userClient, type TestServer } from './support.js';

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer();
  client = await userClient(server);
});
afterAll(() => server.close());

/** An app's endpoint for the transcoder: the SDK's delivery receiver and notification parser behind one HTTP server. */
async function startReceiver() {
  const saved = new Map<string, TranscoderDelivery>();
  const notifications: TranscoderNotification[] = [];
  let complete: (note: TranscoderNotification) => void;
  // The first status change: for a thumbnail-only job, its end (COMPLETE or a rejection).
  const completed = new Promise<TranscoderNotification>((resolve) => (complete = resolve));
  const receive = createDeliveryReceiver({ save: async (path, _file, delivery) => void saved.set(path, delivery) });
  const http = createAdaptorServer({
    overrideGlobalObjects: false,
    fetch: async (request: Request) => {
      if (new URL(request.url).pathname === '/deliveries') return receive(request);
      const note = await parseNotification(request);
      notifications.push(note);
      complete(note);
      return new Response(null, { status: 204 });
    },
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    saved,
    notifications,
    completed,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

describe('transcoder', () => {
  it('stores the five kinds of settings', async () => {
    const { transcoder } = client;
    const thumbnail = await transcoder.saveThumbnail({ name: 'cover', default: true, shots: ['00:00:01'] });
    expect(thumbnail).toMatchObject({ name: 'cover', default: true });
    await transcoder.saveWebhook({ name: 'hook', default: false, url: 'https://example.com/hook' });
    await transcoder.saveUpload({
      name: 'store',
      default: true,
      url: 'https://example.com/deliveries',
      headers: { 'X-Token': 't' },
    });
    await transcoder.saveWatermark({
      name: 'logo',
      default: false,
      location: 'TOP_RIGHT',
      paddingX: 4,
      paddingY: 4,
      url: 'https://example.com/logo.png',
    });
    const preset = await transcoder.savePreset({
      name: 'hls',
      default: true,
      vod: true,
      speed: 'ultrafast',
      videoEncoder: 'x264',
      audioEncoder: 'aac',
      outputs: [{ resolution: '240', videoBitrate: '300k', audioBitrate: '64k' }],
    });
    expect(preset).toMatchObject({ name: 'hls', vod: true });
  });

  it('refuses a conversion that names a missing setting', async () => {
    const error = await rejection(
      client.transcoder.convert({ url: 'https://example.com/in.mp4', upload: 'nope', preset: true }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: 700, operation: 'POST /video/convert' });
  });

  it('converts a video: the receiver stores the thumbnail and the webhook hears the job complete', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'basekit-sdk-video-'));
    const video = join(dir, 'in.mp4');
    execFileSync(programPath(FFMPEG), [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48:rate=10:duration=1',
      '-pix_fmt',
      'yuv420p',
      video,
    ]);
    const [source] = await client.files.upload([{ file: video, path: 'sources' }]);
    const receiver = await startReceiver();
    try {
      await client.transcoder.saveUpload({
        name: 'app',
        default: false,
        url: `${receiver.url}/deliveries`,
        headers: {},
      });
      await client.transcoder.saveWebhook({ name: 'app', default: false, url: `${receiver.url}/hook` });
      await client.transcoder.saveThumbnail({ name: 'first', default: false, shots: ['00:00:00'] });
      const { requestId, videoId } = await client.transcoder.convert({
        url: client.files.downloadUrl(source!),
        upload: 'app',
        webhook: 'app',
        thumbnail: 'first',
      });

      const note = await receiver.completed;
      expect(note).toMatchObject({ requestId, status: 'COMPLETE', job: 'thumbnail' });
      const thumbnails = [...receiver.saved.values()];
      expect(thumbnails).toHaveLength(1);
      expect(thumbnails[0]).toMatchObject({ category: 'thumbnail', requestId, videoId });
      expect(thumbnails[0]!.file.size).toBeGreaterThan(0);
    } finally {
      await receiver.close();
    }
  });
});
