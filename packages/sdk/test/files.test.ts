import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  ExpectationFailedError,
  UnauthorizedError,
  type Client,
  type UploadProgress,
} from '../src/index.js';
import {
  advanceClock,
  masterClient,
  recordingFetch,
  rejection,
  startTestServer,
  userClient,
  type TestServer,
} from './support.js';

let server: TestServer;
let user: Client;
let folders = 0;
/** A folder no other test uses. */
const fresh = () => `t${++folders}`;

beforeAll(async () => {
  server = await startTestServer();
  user = await userClient(server);
});
afterAll(() => server.close());

const text = (value: string) => new TextEncoder().encode(value);
const download = async (url: string) => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res;
};

describe('upload and download', () => {
  it('uploads a File, a Blob, bytes and a file path, and downloads them again', async () => {
    const folder = fresh();
    const dir = await mkdtemp(join(tmpdir(), 'basekit-sdk-'));
    await writeFile(join(dir, 'from-disk.txt'), 'disk');
    const saved = await user.files.upload([
      { file: new File(['file'], 'a.txt'), path: folder },
      { file: new Blob(['blob']), name: 'b.txt', path: folder },
      { file: Buffer.from('buffer'), name: 'c.txt', path: `${folder}/deeper` },
      { file: join(dir, 'from-disk.txt'), path: folder },
    ]);
    expect(saved).toHaveLength(4);
    const bodies = await Promise.all(saved.map(async (path) => (await download(user.files.downloadUrl(path))).text()));
    expect(bodies).toEqual(['file', 'blob', 'buffer', 'disk']);
  });

  it('encodes names with spaces, non-Latin letters and & # % in the path and the download name', async () => {
    const folder = `${fresh()} with space`;
    const [saved] = await user.files.upload([{ file: text('hi'), name: 'notes été #1 & 100%.txt', path: folder }]);
    const url = user.files.downloadUrl(saved!, { filename: 'report & summary #2 100%.txt' });
    expect(url).toContain('?name=report%20%26%20summary%20%232%20100%25.txt');
    const res = await download(url);
    expect(await res.text()).toBe('hi');
    const extended = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1];
    expect(decodeURIComponent(extended!)).toBe('report & summary #2 100%.txt');
    // The same file by the path typed by hand, not percent-encoded.
    expect(await (await download(user.files.downloadUrl(`${folder}/notes été #1 & 100%.txt`))).text()).toBe('hi');
  });

  it('resizes an image through the resize segment', async () => {
    const png = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const [saved] = await user.files.upload([{ file: png, name: 'pic.png', path: fresh() }]);
    const res = await download(user.files.downloadUrl(saved!, { resize: { width: 16, height: 16 } }));
    const { width, height } = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(Math.max(width!, height!)).toBe(16);
  });

  it('downloads a stored file as a Blob, resized when asked', async () => {
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const [saved] = await user.files.upload([{ file: png, name: 'dl.png', path: fresh() }]);
    const blob = await user.files.download(saved!, { resize: { width: 10, height: 10 } });
    const { width } = await sharp(Buffer.from(await blob.arrayBuffer())).metadata();
    expect(width).toBe(10);
    expect(await rejection(user.files.download('nowhere/none.png'))).toMatchObject({
      status: 404,
      operation: 'GET /{bucket}/{path}',
    });
    expect(await rejection(user.files.download(saved!, { signal: AbortSignal.abort() }))).toBeInstanceOf(AbortError);
  });

  it('refuses to overwrite unless replacing', async () => {
    const folder = fresh();
    await user.files.upload([{ file: text('one'), name: 'f.txt', path: folder }]);
    const error = await rejection(user.files.upload([{ file: text('two'), name: 'f.txt', path: folder }]));
    expect(error).toBeInstanceOf(ExpectationFailedError);
    expect(error).toMatchObject({ status: 417, code: 601, operation: 'POST /files' });
    const [saved] = await user.files.upload([{ file: text('two'), name: 'f.txt', path: folder, replacing: true }]);
    expect(await (await download(user.files.downloadUrl(saved!))).text()).toBe('two');
  });

  it('reports upload progress up to the whole body', async () => {
    const progress: UploadProgress[] = [];
    const big = new Uint8Array(2 * 1024 * 1024).fill(7);
    const [saved] = await user.files.upload([{ file: big, name: 'big.bin', path: fresh() }], {
      onProgress: (p) => progress.push(p),
    });
    expect(progress.length).toBeGreaterThan(0);
    const last = progress.at(-1)!;
    expect(last.loaded).toBeGreaterThan(big.length);
    expect(last.loaded).toBe(last.total);
    const loaded = progress.map((p) => p.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect((await (await download(user.files.downloadUrl(saved!))).arrayBuffer()).byteLength).toBe(big.length);
  });

  it('aborts an upload, with or without progress', async () => {
    const item = { file: text('x'), name: 'x.txt', path: fresh() };
    expect(await rejection(user.files.upload([item], { signal: AbortSignal.abort() }))).toBeInstanceOf(AbortError);
    expect(
      await rejection(user.files.upload([item], { signal: AbortSignal.abort(), onProgress: () => {} })),
    ).toBeInstanceOf(AbortError);
  });

  it('replays a multipart upload after the access token expired', async () => {
    const traffic = recordingFetch();
    const own = await userClient(server, { fetch: traffic.fetch });
    await advanceClock(server, 7200);
    const [saved] = await own.files.upload([{ file: text('after renewal'), name: 'r.txt', path: fresh() }]);
    expect(await (await download(own.files.downloadUrl(saved!))).text()).toBe('after renewal');
    expect(traffic.exchanges.filter((e) => e.path === '/files').map((e) => e.status)).toEqual([401, 200]);
  });
});

describe('folders and files', () => {
  it('creates folders, lists them page by page and iterates over all records', async () => {
    const folder = fresh();
    const admin = await masterClient(server);
    expect(await user.files.createFolder(`${folder}/sub`)).toEqual({ created: true });
    expect(await user.files.createFolder(`${folder}/sub`)).toEqual({ created: false });
    await user.files.upload(
      Array.from({ length: 60 }, (_, i) => ({
        file: text(`${i}`),
        name: `f${String(i).padStart(2, '0')}.txt`,
        path: folder,
      })),
    );

    const first = await admin.files.list(folder, { page: 0, pageSize: 50 });
    expect(first).toHaveLength(50);
    const second = await admin.files.list(folder, { page: 1, pageSize: 50 });
    expect(second).toHaveLength(11);
    const all = [];
    for await (const record of admin.files.listAll(folder, { pageSize: 25 })) all.push(record);
    expect(all.map((r) => r.url)).toEqual([...first, ...second].map((r) => r.url));
    expect(all.filter((r) => r.isDirectory)).toHaveLength(1);

    expect(await rejection(user.files.list(folder))).toBeInstanceOf(UnauthorizedError);
  });

  it('gives file info, renames, copies, moves and deletes', async () => {
    const folder = fresh();
    const admin = await masterClient(server);
    const [saved] = await user.files.upload([{ file: text('content'), name: 'a.txt', path: folder }]);
    const info = await admin.files.info(saved!);
    expect(info).toMatchObject({ isDirectory: false, fileSizeInBytes: 7 });

    const renamed = await user.files.rename(saved!, 'b.txt');
    expect(await (await download(user.files.downloadUrl(renamed))).text()).toBe('content');

    const [copy] = await admin.files.copy(renamed, `${folder}/copies`);
    expect(await (await download(user.files.downloadUrl(copy!))).text()).toBe('content');
    expect(await rejection(admin.files.copy(renamed, `${folder}/copies`))).toBeInstanceOf(ExpectationFailedError);
    await admin.files.copy([renamed], `${folder}/copies`, { force: true });

    const [moved] = await admin.files.move(renamed, `${folder}/moved`);
    expect((await fetch(user.files.downloadUrl(renamed))).status).toBe(404);
    expect(await (await download(user.files.downloadUrl(moved!))).text()).toBe('content');

    expect(await rejection(user.files.delete(`${folder}/copies`))).toBeInstanceOf(ExpectationFailedError);
    await user.files.delete([`${folder}/copies`, `${folder}/moved`], { force: [true, true] });
    expect(await admin.files.list(folder)).toEqual([]);
  });
});
