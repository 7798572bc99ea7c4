import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { downloadPath, masterClient, type StorageClient } from './support.js';

let server: TestServer;
let master: StorageClient;
const video = new Uint8Array(300_000).map((_, i) => (i * 13) % 256);

beforeAll(async () => {
  server = await startTestServer();
  master = await masterClient(server);
  const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  await master.put([
    { name: 'clip.mp4', content: video, path: 'media' },
    { name: 'wide.png', content: new Uint8Array(png), path: 'media' },
    { name: 'notes.txt', content: 'plain text', path: 'media' },
    { name: 'fake.png', content: 'not really a png', path: 'media' },
    { name: 'گزارش سالانه.txt', content: 'persian', path: 'media' },
    { name: 'empty.txt', content: '' },
    {
      name: 'logo.svg',
      content:
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/><script>fetch("/auth/users/me")</script></svg>',
      path: 'media',
    },
  ]);
});
afterAll(() => server.close());

const get = (saved: string, headers: Record<string, string> = {}, method = 'GET') =>
  server.request(downloadPath(server, saved), { method, headers });

describe('GET /{bucket}/{path}', () => {
  it('serves the bytes with Content-Type, Content-Length, ETag and Last-Modified, without any header from the client', async () => {
    const res = await get('media/clip.mp4');
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(video);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(res.headers.get('last-modified')!)).not.toBeNaN();
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect((await get('media/notes.txt')).headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers HEAD with the headers only', async () => {
    const res = await get('media/clip.mp4', {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(await res.text()).toBe('');
  });

  it('answers 304 to If-None-Match with the ETag and to If-Modified-Since not older than the file', async () => {
    const first = await get('media/notes.txt');
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const revalidated = await get('media/notes.txt', { 'If-None-Match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(etag);
    expect(await revalidated.text()).toBe('');
    expect((await get('media/notes.txt', { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get('media/notes.txt', { 'If-None-Match': '"other"' })).status).toBe(200);
    expect((await get('media/notes.txt', { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect(
      (await get('media/notes.txt', { 'If-Modified-Since': new Date(Date.parse(lastModified) - 5000).toUTCString() }))
        .status,
    ).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect(
      (await get('media/notes.txt', { 'If-None-Match': '"other"', 'If-Modified-Since': lastModified })).status,
    ).toBe(200);
  });

  it('serves byte ranges with 206 and Content-Range, as video players seek', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-', 1000, video.length - 1],
      ['bytes=-500', video.length - 500, video.length - 1],
      ['bytes=299990-400000', 299_990, video.length - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get('media/clip.mp4', { Range: range });
      expect([range, res.status]).toEqual([range, 206]);
      expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${video.length}`);
      expect(res.headers.get('content-length')).toBe(String(end - start + 1));
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(video.subarray(start, end + 1));
    }
  });

  it('answers 416 to a range past the end and ignores malformed ranges and a stale If-Range', async () => {
    const res = await get('media/clip.mp4', { Range: 'bytes=300000-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${video.length}`);
    expect(await res.json()).toMatchObject({ code: 610 });
    expect((await get('empty.txt', { Range: 'bytes=0-' })).status).toBe(416);
    for (const range of ['bytes=a-b', 'items=0-5', 'bytes=0-1,5-6', 'bytes=9-3']) {
      expect([range, (await get('media/notes.txt', { Range: range })).status]).toEqual([range, 200]);
    }
    expect((await get('media/clip.mp4', { Range: 'bytes=0-9', 'If-Range': '"stale"' })).status).toBe(200);
    const etag = (await get('media/clip.mp4', {}, 'HEAD')).headers.get('etag')!;
    expect((await get('media/clip.mp4', { Range: 'bytes=0-9', 'If-Range': etag })).status).toBe(206);
  });

  it('sets Content-Disposition from ?name= or ?filename=, with filename* for non-ASCII names', async () => {
    const named = await get(`media/notes.txt?name=${encodeURIComponent('report & summary #1 100%.txt')}`);
    expect(named.headers.get('content-disposition')).toBe(
      `attachment; filename="report & summary #1 100%.txt"; filename*=UTF-8''report%20&%20summary%20#1%20100%25.txt`,
    );
    const persian = await get(`media/notes.txt?filename=${encodeURIComponent('گزارش.txt')}`);
    const disposition = persian.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe('گزارش.txt');
    expect((await get('media/notes.txt')).headers.get('content-disposition')).toBe(
      `inline; filename="notes.txt"; filename*=UTF-8''notes.txt`,
    );
    expect((await get('media/notes.txt?name=')).status).toBe(400);
    expect((await get(`media/notes.txt?name=${encodeURIComponent('../x')}`)).status).toBe(400);
  });

  it('saves under the non-ASCII name with a real client (curl -OJ)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'basekit-curl-'));
    try {
      const url = `${server.url}${downloadPath(server, `media/${encodeURIComponent('گزارش سالانه.txt')}`)}`;
      await promisify(execFile)('curl', ['-sSfOJ', url], { cwd: dir });
      expect(await readdir(dir)).toEqual(['گزارش سالانه.txt']);
      expect(await readFile(join(dir, 'گزارش سالانه.txt'), 'utf8')).toBe('persian');
      await promisify(execFile)('curl', ['-sSfOJ', `${url}?name=${encodeURIComponent('دانلود.txt')}`], { cwd: dir });
      expect((await readdir(dir)).sort()).toEqual(['دانلود.txt', 'گزارش سالانه.txt'].sort());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers 404 for a missing file, a folder, and the bucket root', async () => {
    for (const path of ['media/none.txt', 'media', '']) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.json()).toEqual({ code: expect.any(Number), error: expect.any(String) });
    }
  });
});

describe('GET /{bucket}/{image}/r/{w}x{h}', () => {
  it('resizes an image to fit inside w×h keeping its aspect, in its own format, never larger than it is', async () => {
    for (const [box, width, height] of [
      ['100x100', 100, 50],
      ['50x200', 50, 25],
      ['800x300', 400, 200],
      ['4096x4096', 400, 200],
    ] as const) {
      const res = await get(`media/wide.png/r/${box}`);
      expect([box, res.status, res.headers.get('content-type')]).toEqual([box, 200, 'image/png']);
      const meta = await sharp(new Uint8Array(await res.arrayBuffer())).metadata();
      expect([box, meta.width, meta.height]).toEqual([box, width, height]);
    }
    expect((await get('media/wide.png/r/100x100/')).status).toBe(200);
  });

  it('serves an SVG (with a script, an attachment as it is) resized to a PNG inline', async () => {
    const res = await get('media/logo.svg/r/5x5');
    expect([res.status, res.headers.get('content-type'), res.headers.get('content-disposition')]).toEqual([
      200,
      'image/png',
      expect.stringMatching(/^inline;/),
    ]);
  });

  it('serves the resized copy again with the same ETag, and answers 304 for it', async () => {
    const first = await get('media/wide.png/r/64x64');
    const again = await get('media/wide.png/r/64x64');
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(new Uint8Array(await first.arrayBuffer()));
    const etag = first.headers.get('etag')!;
    expect(again.headers.get('etag')).toBe(etag);
    expect(etag).not.toBe((await get('media/wide.png', {}, 'HEAD')).headers.get('etag'));
    expect((await get('media/wide.png/r/64x64', { 'If-None-Match': etag })).status).toBe(304);
  });

  it('answers 400 for a non-image, an unreadable image, or a size out of range', async () => {
    for (const path of ['media/notes.txt/r/10x10', 'media/clip.mp4/r/10x10', 'media/fake.png/r/10x10']) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 400]);
      expect(await res.json()).toMatchObject({ code: 607 });
    }
    for (const size of ['0x10', '10x0', '5000x10', '10x4097']) {
      const res = await get(`media/wide.png/r/${size}`);
      expect([size, res.status, await res.json()]).toEqual([
        size,
        400,
        { code: 612, error: 'resize width and height must be between 1 and 4096' },
      ]);
    }
    expect((await get('media/none.png/r/10x10')).status).toBe(404);
  });

  it('takes sides up to maxResizeSide', async () => {
    const patch = (maxResizeSide: number) => server.patchConfig({ maxResizeSide });
    await patch(64);
    try {
      expect((await get('media/wide.png/r/64x64')).status).toBe(200);
      expect(await (await get('media/wide.png/r/65x10')).json()).toEqual({
        code: 612,
        error: 'resize width and height must be between 1 and 64',
      });
    } finally {
      await patch(4096);
    }
  });
});
