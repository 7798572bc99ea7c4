// Outbound requests of convert jobs under their limits: sources and watermark images no larger than configured
// (the transfer stops as soon as more arrive), every request bounded in time (an address that accepts the
// connection and never answers cannot hold a job), and one reason for the caller whatever went wrong.
import { mkdtempSync, readdirSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import {
  Receiver,
  makeVideo,
  makeWatermark,
  probe,
  resetForProducer,
  type transcoderClient,
  understateDuration,
} from './support.js';

// Jobs work under the system temporary folder: give this file its own, to see that they clean up.
const systemTmp = tmpdir();
const scratch = mkdtempSync(join(systemTmp, 'transcoder-outbound-'));
process.env['TMPDIR'] = scratch;

let server: TestServer;
let receiver: Receiver;
let post: ReturnType<typeof transcoderClient>;
const closers: (() => void)[] = [];
let defaults: Record<string, number>;

const address = (s: HttpServer | TcpServer) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const listening = <S extends HttpServer | TcpServer>(s: S) =>
  new Promise<S>((done) => s.listen(0, '127.0.0.1', () => done(s)));

/** An HTTP server that answers 200 and streams bytes until the client goes away; `sent` counts what left. */
async function endless({ contentLength }: { contentLength?: number } = {}) {
  const counter = { sent: 0, url: '' };
  const http = await listening(
    createHttpServer((_, res) => {
      res.writeHead(200, contentLength ? { 'content-length': String(contentLength) } : {});
      const chunk = Buffer.alloc(64 * 1024);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) counter.sent += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    }),
  );
  closers.push(() => {
    http.closeAllConnections();
    http.close();
  });
  counter.url = address(http);
  return counter;
}

/** A TCP server on 127.0.0.1 that accepts every connection and never answers. */
async function silent(): Promise<string> {
  const sockets: Socket[] = [];
  const tcp = await listening(createTcpServer((socket) => sockets.push(socket.on('error', () => undefined))));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    tcp.close();
  });
  return address(tcp);
}

async function jobOf(requestId: string): Promise<Record<string, unknown>> {
  const { jobs } = (await (await server.admin('/__admin/jobs')).json()) as { jobs: Record<string, unknown>[] };
  return jobs.find((j) => j['requestId'] === requestId)!;
}

async function convert(body: Record<string, unknown>): Promise<{ requestId: string; videoId: string }> {
  const res = await post('/video/convert', { upload: true, webhook: true, ...body });
  expect(res.status).toBe(202);
  return (await res.json()) as { requestId: string; videoId: string };
}

beforeAll(async () => {
  receiver = await new Receiver(mkdtempSync(join(systemTmp, 'transcoder-outbound-files-'))).listen();
  makeVideo(join(receiver.root, 'src/video.mp4'), { seconds: 1, size: '160x120' });
  makeWatermark(join(receiver.root, 'src/mark.png'));
  server = await startTestServer();
  const {
    transcoderMaxSourceBytes,
    transcoderMaxWatermarkBytes,
    transcoderMaxOutputBytes,
    transcoderFirstByteTimeoutMs,
    transcoderTransferTimeoutMs,
  } = server.engine.project.config;
  defaults = {
    transcoderMaxSourceBytes,
    transcoderMaxWatermarkBytes,
    transcoderMaxOutputBytes,
    transcoderFirstByteTimeoutMs,
    transcoderTransferTimeoutMs,
  };
});
afterAll(async () => {
  await server.close();
  await receiver.close();
});
beforeEach(async () => {
  post = await resetForProducer(server, { retryDelayMs: 10, deliveryAttempts: 2, timeLimitMs: 120_000 });
  for (const [kind, body] of Object.entries({
    upload: { name: 'receiver', default: true, url: `${receiver.url}/upload` },
    webhook: { name: 'receiver', default: true, url: `${receiver.url}/webhook` },
    thumbnail: { name: 'one', default: true, shots: ['00:00:00'] },
    preset: {
      name: 'small',
      default: true,
      speed: 'ultrafast',
      outputs: [{ resolution: '120', videoBitrate: '150k', audioBitrate: '48k' }],
    },
  })) {
    expect((await post(`/metadata/${kind}`, body)).status).toBe(201);
  }
});
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  // An admin reset keeps the config: put back the limits a test changed.
  await server.patchConfig(defaults);
});

describe('size limits', () => {
  it('stops downloading a source past transcoderMaxSourceBytes and rejects the job', async () => {
    await server.patchConfig({ transcoderMaxSourceBytes: 1024 * 1024 });
    const source = await endless();
    const { requestId } = await convert({ url: `${source.url}/huge.mp4`, thumbnail: true });
    const [note] = await receiver.notificationsOf(requestId, 1, 10);
    expect(note).toMatchObject({
      status: 'REJECTED',
      payload: { reason: expect.stringContaining('at most 1048576 bytes') },
    });
    expect(await jobOf(requestId)).toMatchObject({
      state: 'rejected',
      detail: expect.stringContaining('more than the limit of 1048576 bytes'),
    });
    // Socket buffers hold a few megabytes at most: the transfer stopped right after the limit.
    expect(source.sent).toBeLessThan(16 * 1024 * 1024);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('refuses at once a source whose Content-Length is past the limit', async () => {
    await server.patchConfig({ transcoderMaxSourceBytes: 1024 * 1024 });
    const source = await endless({ contentLength: 400 * 1024 * 1024 });
    const { requestId } = await convert({ url: `${source.url}/huge.mp4`, thumbnail: true });
    await receiver.notificationsOf(requestId, 1, 10);
    expect(await jobOf(requestId)).toMatchObject({
      state: 'rejected',
      detail: expect.stringContaining('announced 419430400 bytes'),
    });
  });

  it('counts the bytes of a compressed source as they come out of decompression', async () => {
    await server.patchConfig({ transcoderMaxSourceBytes: 1024 * 1024 });
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const zipped = await listening(
      createHttpServer((_, res) =>
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb),
      ),
    );
    closers.push(() => zipped.close());
    const { requestId } = await convert({ url: `${address(zipped)}/video.mp4`, thumbnail: true });
    await receiver.notificationsOf(requestId, 1, 10);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(await jobOf(requestId)).toMatchObject({
      state: 'rejected',
      detail: expect.stringContaining('more than the limit of 1048576 bytes'),
    });
  });

  it('stops downloading a watermark image past transcoderMaxWatermarkBytes and rejects the job', async () => {
    await server.patchConfig({ transcoderMaxWatermarkBytes: 256 * 1024 });
    const image = await endless();
    await post('/metadata/watermark', { name: 'huge', url: `${image.url}/mark.png`, location: 'TOP_LEFT' });
    const { requestId } = await convert({ url: `${receiver.url}/src/video.mp4`, preset: true, watermark: 'huge' });
    const [note] = await receiver.notificationsOf(requestId, 1, 10);
    expect(note).toMatchObject({
      status: 'REJECTED',
      payload: { reason: expect.stringContaining('watermark image could not be used') },
    });
    expect(await jobOf(requestId)).toMatchObject({
      detail: expect.stringContaining('more than the limit of 262144 bytes'),
    });
    expect(image.sent).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('disk', () => {
  it('rejects before encoding a conversion whose outputs would pass transcoderMaxOutputBytes', async () => {
    // 1 s at 100M + 48k is about 12.5 MB: over a 1 MB limit.
    await server.patchConfig({ transcoderMaxOutputBytes: 1024 * 1024 });
    await post('/metadata/preset', {
      name: 'heavy',
      speed: 'ultrafast',
      outputs: [{ resolution: '120', videoBitrate: '100M', audioBitrate: '48k' }],
    });
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/video.mp4`, preset: 'heavy' });
    const [note] = await receiver.notificationsOf(requestId, 1, 10);
    expect(note).toMatchObject({
      status: 'REJECTED',
      payload: { reason: expect.stringMatching(/would take about \d+ bytes, more than the limit of 1048576/) },
    });
    expect(receiver.deliveriesOf(videoId)).toEqual([]);
  });

  it('encodes no more than the duration the source declares, whatever frames it holds', async () => {
    // 8 s of frames in a container that says 1 s: the disk estimate above relies on the declared duration.
    understateDuration(
      makeVideo(join(receiver.root, 'src/understated.mp4'), { seconds: 8, size: '160x120', audio: false }),
      8,
    );
    const { requestId, videoId } = await convert({ url: `${receiver.url}/src/understated.mp4`, preset: true });
    expect((await receiver.notificationsOf(requestId, 1, 20))[0]!.status).toBe('COMPLETE');
    expect(probe(join(receiver.root, videoId, receiver.deliveriesOf(videoId)[0]!.file.name)).duration).toBeLessThan(
      1.5,
    );
  });
});

describe('time limits', () => {
  it('gives up on an upload address that accepts the connection and never answers', async () => {
    await server.patchConfig({ transcoderFirstByteTimeoutMs: 300 });
    await post('/metadata/upload', { name: 'silent', url: `${await silent()}/upload` });
    const started = Date.now();
    const { requestId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: true, upload: 'silent' });
    const [note] = await receiver.notificationsOf(requestId, 1, 10);
    expect(note).toMatchObject({
      status: 'THUMBNAIL_REJECTED',
      payload: { reason: expect.stringContaining('1 upload deliveries failed') },
    });
    // An address that never answers held the job for ever; now it gives up after its time limit and one retry.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await jobOf(requestId)).toMatchObject({
      deliveries: { failed: 1, retries: 1 },
      lastDeliveryError: expect.stringContaining('no answer within 300 ms'),
    });
  });

  it('gives up on a webhook that accepts the connection and never answers, and the job ends', async () => {
    await server.patchConfig({ transcoderFirstByteTimeoutMs: 300 });
    await post('/metadata/webhook', { name: 'silent', url: `${await silent()}/webhook` });
    const { requestId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: true, webhook: 'silent' });
    await expect
      .poll(() => jobOf(requestId), { timeout: 5000 })
      .toMatchObject({
        state: 'complete',
        finishedAt: expect.any(String),
        notifications: [{ status: 'COMPLETE', attempts: 2, delivered: false }],
      });
  });

  it('gives up on a source that never answers, and on one that sends too slowly', async () => {
    await server.patchConfig({ transcoderFirstByteTimeoutMs: 300, transcoderTransferTimeoutMs: 1000 });
    const silentSource = await convert({ url: `${await silent()}/video.mp4`, thumbnail: true });
    const trickle = await listening(createHttpServer((_, res) => res.writeHead(200).write('0')));
    closers.push(() => {
      trickle.closeAllConnections();
      trickle.close();
    });
    const slowSource = await convert({ url: `${address(trickle)}/video.mp4`, thumbnail: true });
    await receiver.notificationsOf(silentSource.requestId, 1, 10);
    await receiver.notificationsOf(slowSource.requestId, 1, 10);
    expect(await jobOf(silentSource.requestId)).toMatchObject({
      state: 'rejected',
      detail: expect.stringContaining('no answer within 300 ms'),
    });
    expect(await jobOf(slowSource.requestId)).toMatchObject({
      state: 'rejected',
      detail: expect.stringContaining('did not finish within 1000 ms'),
    });
  });
});

describe('the reason a caller is told', () => {
  it('is the same whether the source is unreachable, refused, silent, too large, not a video or redirected off http', async () => {
    await server.patchConfig({ transcoderFirstByteTimeoutMs: 300, transcoderMaxSourceBytes: 1024 * 1024 });
    const forbidding = await listening(createHttpServer((_, res) => res.writeHead(403).end('no')));
    const redirecting = await listening(
      createHttpServer((_, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end()),
    );
    closers.push(
      () => forbidding.close(),
      () => redirecting.close(),
    );
    const sources = [
      'http://127.0.0.1:9/video.mp4',
      `${address(forbidding)}/video.mp4`,
      `${await silent()}/video.mp4`,
      `${(await endless()).url}/video.mp4`,
      `${receiver.url}/src/nothing.mp4`,
      `${receiver.url}/src/mark.png`,
      `${address(redirecting)}/video.mp4`,
    ];
    const reasons = new Set<unknown>();
    const details = new Set<unknown>();
    for (const url of sources) {
      const { requestId } = await convert({ url, preset: true });
      reasons.add((await receiver.notificationsOf(requestId, 1, 10))[0]!.payload['reason']);
      details.add((await jobOf(requestId))['detail']);
    }
    expect([...reasons]).toEqual([expect.stringMatching(/^the source could not be used/)]);
    // The admin job view (master key only) keeps what happened.
    expect(details.size).toBe(sources.length);
  });

  it('names no address or status for failed deliveries', async () => {
    receiver.failUploads = 2;
    const { requestId } = await convert({ url: `${receiver.url}/src/video.mp4`, thumbnail: true });
    const [note] = await receiver.notificationsOf(requestId, 1, 10);
    receiver.failUploads = 0;
    expect(note!.payload['reason']).toBe('1 upload deliveries failed: the upload address did not accept them');
    expect(await jobOf(requestId)).toMatchObject({ lastDeliveryError: expect.stringContaining('answered 503') });
  });
});
