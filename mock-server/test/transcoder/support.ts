// Test helpers of the transcoder: a receiver for deliveries and notifications (also a static file server for
// sources, the stored HLS files and the player page), and small generated videos.
import { createAdaptorServer } from '@hono/node-server';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import {
  createDeliveryReceiver,
  parseNotification,
  type TranscoderDelivery,
  type TranscoderNotification,
} from '../../../packages/sdk/src/transcoder/deliveries.js';
import { FFMPEG, FFPROBE, programPath } from '../../../test/support/programs.js';

export { resetForProducer, transcoderClient } from '../../../packages/engine/test/transcoder/support.js';

const HLS_JS = resolve(import.meta.dirname, '../../../node_modules/hls.js/dist/hls.min.js');

const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.mp4': 'video/mp4',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.html': 'text/html',
  '.js': 'text/javascript',
};

/**
 * Receives what the transcoder sends: `POST /upload` stores deliveries under `root` (through the SDK's receiver),
 * `POST /webhook` collects notifications; `GET /<path>` serves files of `root` and `/hls.min.js`.
 */
export class Receiver {
  readonly deliveries: TranscoderDelivery[] = [];
  readonly notifications: TranscoderNotification[] = [];
  /** Headers of every upload request, in order. */
  readonly uploadHeaders: Headers[] = [];
  /** The next this-many uploads and webhooks answer 503 (to exercise retries). */
  failUploads = 0;
  failWebhooks = 0;
  url = '';
  #waiters: (() => void)[] = [];
  #close?: () => Promise<void>;

  constructor(readonly root: string) {}

  readonly #receive = createDeliveryReceiver({
    save: (path, file, delivery) =>
      file.arrayBuffer().then((bytes) => {
        mkdirSync(dirname(join(this.root, path)), { recursive: true });
        writeFileSync(join(this.root, path), new Uint8Array(bytes));
        this.deliveries.push(delivery);
      }),
  });

  fetch = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/upload') {
      this.uploadHeaders.push(request.headers);
      if (this.failUploads > 0) {
        this.failUploads--;
        return new Response('try later', { status: 503 });
      }
      return this.#receive(request);
    }
    if (request.method === 'POST' && pathname === '/webhook') {
      if (this.failWebhooks > 0) {
        this.failWebhooks--;
        return new Response('try later', { status: 503 });
      }
      this.notifications.push(await parseNotification(request));
      for (const wake of this.#waiters.splice(0)) wake();
      return new Response(null, { status: 204 });
    }
    const file = pathname === '/hls.min.js' ? HLS_JS : join(this.root, decodeURIComponent(pathname));
    try {
      return new Response(readFileSync(file), {
        headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
      });
    } catch {
      return new Response('not found', { status: 404 });
    }
  };

  /** Serves this receiver on 127.0.0.1 (a free port); `url` is its address. */
  async listen(): Promise<this> {
    const server = createAdaptorServer({ fetch: this.fetch, overrideGlobalObjects: false });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.#close = () => new Promise((done) => server.close(() => done()));
    return this;
  }

  close(): Promise<void> {
    return this.#close?.() ?? Promise.resolve();
  }

  /** The notifications of one request, once `count` of them arrived (waits up to `seconds`). */
  async notificationsOf(requestId: string, count: number, seconds = 120): Promise<TranscoderNotification[]> {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const mine = this.notifications.filter((n) => n.requestId === requestId);
      if (mine.length >= count) return mine;
      if (Date.now() > deadline)
        throw new Error(`request ${requestId}: ${mine.length} of ${count} notifications after ${seconds} s`);
      await new Promise<void>((wake) => {
        this.#waiters.push(wake);
        setTimeout(wake, 1000);
      });
    }
  }

  deliveriesOf(videoId: string): TranscoderDelivery[] {
    return this.deliveries.filter((d) => d.videoId === videoId);
  }
}

/** Runs ffmpeg quietly (errors only) with `args`; its standard output. */
const ffmpeg = (args: string[]) => execFileSync(programPath(FFMPEG), ['-hide_banner', '-loglevel', 'error', ...args]);

/** A small test video (a lavfi `picture`, testsrc2 by default, with a sine tone unless `audio` is false), written with ffmpeg. */
export function makeVideo(
  path: string,
  { seconds = 4, size = '320x240', audio = true, picture = 'testsrc2' } = {},
): string {
  mkdirSync(dirname(path), { recursive: true });
  const sound = audio
    ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:a', 'aac', '-b:a', '64k']
    : [];
  const video = `${picture}${picture.includes('=') ? ':' : '='}size=${size}:rate=25:duration=${seconds}`;
  ffmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    video,
    ...sound,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-shortest',
    path,
  ]);
  return path;
}

/**
 * Makes an MP4 claim a shorter duration than its frames last: the durations of its mvhd, tkhd and mdhd boxes
 * (version 0) are divided by `factor`, the frames stay. Players and ffprobe believe the header.
 */
export function understateDuration(path: string, factor: number): void {
  const bytes = readFileSync(path);
  // Offset of the duration from the start of the box's payload (after version and flags, times, timescale or id).
  const boxes: Record<string, number> = { mvhd: 16, mdhd: 16, tkhd: 20 };
  for (const [type, offset] of Object.entries(boxes)) {
    for (let at = bytes.indexOf(type); at >= 0; at = bytes.indexOf(type, at + 4)) {
      if (bytes[at + 4] !== 0) continue;
      const field = at + 4 + offset;
      bytes.writeUInt32BE(Math.floor(bytes.readUInt32BE(field) / factor), field);
    }
  }
  writeFileSync(path, bytes);
}

/** The colour `[r, g, b]` at (x, y) of the frame at `second` of a video. */
export function pixelAt(path: string, second: number): (x: number, y: number) => number[] {
  const { width } = probe(path);
  const frame = ffmpeg([
    '-ss',
    String(second),
    '-i',
    path,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  return (x, y) => [...frame.subarray((y * width + x) * 3, (y * width + x) * 3 + 3)];
}

/** A 40x20 half-transparent red PNG. */
export function makeWatermark(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  ffmpeg(['-y', '-f', 'lavfi', '-i', 'color=c=red@0.6:size=40x20,format=rgba', '-frames:v', '1', path]);
  return path;
}

/** Video properties of a file, through ffprobe. */
export function probe(path: string): {
  width: number;
  height: number;
  duration: number;
  codecs: string[];
  title?: string;
} {
  const out = JSON.parse(
    execFileSync(
      programPath(FFPROBE),
      [
        '-v',
        'error',
        '-show_entries',
        'format=duration:format_tags=title:stream=codec_name,width,height',
        '-of',
        'json',
        path,
      ],
      { encoding: 'utf8' },
    ),
  ) as {
    format: { duration: string; tags?: { title?: string } };
    streams: { codec_name: string; width?: number; height?: number }[];
  };
  const video = out.streams.find((s) => s.width)!;
  return {
    width: video.width!,
    height: video.height!,
    duration: Number(out.format.duration),
    codecs: out.streams.map((s) => s.codec_name),
    title: out.format.tags?.title,
  };
}
