import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { FileRecord } from '../../src/areas/files/listing.js';
import { masterClient, storageSuite } from './support.js';

const suite = storageSuite();

async function list(body: Record<string, unknown>): Promise<FileRecord[]> {
  const res = await suite.master.post('/files/directoryInfo', body);
  const json = (await res.json()) as { files: FileRecord[] };
  if (res.status !== 200) throw new Error(`listing failed: ${res.status} ${JSON.stringify(json)}`);
  return json.files;
}

describe('POST /files/directoryInfo', () => {
  it('pages from pageNumber 0: records pageNumber*pageSize to pageNumber*pageSize+pageSize-1', async () => {
    const names = Array.from({ length: 23 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);
    await suite.master.put(names.map((name) => ({ name, content: name, path: 'many' })));
    const page = async (pageNumber: number, pageSize: number) =>
      (await list({ url: 'many', pageNumber, pageSize, sortingType: 'ASC' })).map((r) => r.url.split('/').pop());
    expect(await page(0, 10)).toEqual(names.slice(0, 10));
    expect(await page(1, 10)).toEqual(names.slice(10, 20));
    expect(await page(2, 10)).toEqual(names.slice(20));
    expect(await page(3, 10)).toEqual([]);
    expect(await page(4, 5)).toEqual(names.slice(20, 25));
  });

  it('serves at most 50 records per request: a pageSize over 50 is 400', async () => {
    await suite.master.put(Array.from({ length: 51 }, (_, i) => ({ name: `n${i}`, content: '', path: 'big' })));
    expect(await list({ url: 'big', pageNumber: 0, pageSize: 50 })).toHaveLength(50);
    expect(await list({ url: 'big' })).toHaveLength(50);
    expect(await list({ url: 'big', pageNumber: 1 })).toHaveLength(1);
    const res = await suite.master.post('/files/directoryInfo', { url: 'big', pageNumber: 0, pageSize: 51 });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: expect.any(Number), error: expect.stringContaining('pageSize') });
  });

  it('sorts by name with ASC and DESC, folders and files together', async () => {
    await suite.master.put([
      { name: 'b.txt', content: '' },
      { name: 'a.txt', content: '' },
      { name: 'x', content: '', path: 'c' },
      { name: 'B.txt', content: '' },
    ]);
    const urls = async (sortingType: string) =>
      (await list({ url: '/', pageNumber: 0, pageSize: 50, sortingType })).map((r) => r.url);
    expect(await urls('ASC')).toEqual([
      '/dev-storage/B.txt',
      '/dev-storage/a.txt',
      '/dev-storage/b.txt',
      '/dev-storage/c',
    ]);
    expect(await urls('DESC')).toEqual([
      '/dev-storage/c',
      '/dev-storage/b.txt',
      '/dev-storage/a.txt',
      '/dev-storage/B.txt',
    ]);
  });

  it('gives every field of FileInfo, with children counted for nested folders', async () => {
    await suite.master.put([
      { name: 'one.txt', content: '12345', path: 'top' },
      { name: 'two.txt', content: '123', path: 'top/mid' },
      { name: 'three.txt', content: '1', path: 'top/mid/deep' },
    ]);
    await suite.master.post('/directories', { path: 'top/empty' });
    const [top] = await list({ url: '/' });
    expect(top).toEqual({
      guid: expect.any(String),
      url: '/dev-storage/top',
      ownerId: null,
      isDirectory: true,
      fileSizeInBytes: 9,
      numberOfDirectChildren: 3,
      numberOfTotalChildren: 6,
    });
    const inside = await list({ url: '/dev-storage/top' });
    expect(
      inside.map((r) => [r.url, r.isDirectory, r.numberOfDirectChildren, r.numberOfTotalChildren, r.fileSizeInBytes]),
    ).toEqual([
      ['/dev-storage/top/empty', true, 0, 0, 0],
      ['/dev-storage/top/mid', true, 2, 3, 4],
      ['/dev-storage/top/one.txt', false, 0, 0, 5],
    ]);
    expect(new Set([top!.guid, ...inside.map((r) => r.guid)]).size).toBe(4);
  });

  it('accepts a record url back as it was answered', async () => {
    await suite.master.put([{ name: 'x.txt', content: 'x', path: 'some folder/ü' }]);
    const [folder] = await list({ url: 'some folder' });
    expect(folder!.url).toBe('/dev-storage/some%20folder/%C3%BC');
    expect((await list({ url: folder!.url })).map((r) => r.url)).toEqual(['/dev-storage/some%20folder/%C3%BC/x.txt']);
  });

  it('answers 400 for bad fields, 404 for a missing folder and 400 for a file', async () => {
    await suite.master.put([{ name: 'f.txt', content: 'x' }]);
    for (const body of [
      {},
      { url: 1 },
      { url: '/', pageNumber: -1 },
      { url: '/', pageNumber: 1.5 },
      { url: '/', pageSize: 0 },
      { url: '/', pageSize: '10' },
      { url: '/', sortingType: 'SIDEWAYS' },
    ]) {
      const res = await suite.master.post('/files/directoryInfo', body);
      expect([body, res.status]).toEqual([body, 400]);
    }
    expect((await suite.master.post('/files/directoryInfo', { url: 'nope' })).status).toBe(404);
    const file = await suite.master.post('/files/directoryInfo', { url: 'f.txt' });
    expect(file.status).toBe(400);
    expect(await file.json()).toMatchObject({ code: 609 });
  });
});

describe('POST /files/fileInfo', () => {
  it('gives every field of 2.6 with hashes of the bytes and dates from the server clock', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7919) % 251);
    await suite.server.admin('/__admin/clock', {
      method: 'POST',
      body: JSON.stringify({ advanceSeconds: 86_400 * 365 }),
    });
    const before = Date.now() + 86_400 * 365 * 1000;
    suite.master = await masterClient(suite.server); // the old token expired with the clock move
    const [saved] = await suite.master.put([{ name: 'data.bin', content: bytes, path: 'info' }]);
    const res = await suite.master.post('/files/fileInfo', { url: saved });
    expect(res.status).toBe(200);
    const info = (await res.json()) as Record<string, unknown>;
    expect(info).toEqual({
      guid: expect.any(String),
      url: '/dev-storage/info/data.bin',
      ownerId: null,
      isDirectory: false,
      fileSizeInBytes: 70_000,
      numberOfDirectChildren: 0,
      numberOfTotalChildren: 0,
      creationDate: expect.any(Number),
      lastModificationDate: expect.any(Number),
      realFileSizeInBytes: 70_000,
      md5Hash: createHash('md5').update(bytes).digest('hex'),
      crcHash: crc32(bytes).toString(16).padStart(8, '0'),
      thumbnails: null,
      defaultThumbnail: null,
      metaData: null,
    });
    expect(info['creationDate']).toBeGreaterThanOrEqual(before - 1000);
    expect(info['lastModificationDate']).toBe(info['creationDate']);
  });

  it('hashes empty and odd-sized files like node:crypto and zlib', async () => {
    for (const size of [0, 1, 55, 56, 64, 1000]) {
      const bytes = new Uint8Array(size).map((_, i) => (i * 31 + size) % 256);
      const [saved] = await suite.master.put([{ name: `s${size}`, content: bytes }]);
      const info = (await (await suite.master.post('/files/fileInfo', { url: saved })).json()) as Record<
        string,
        unknown
      >;
      expect(info).toMatchObject({
        md5Hash: createHash('md5').update(bytes).digest('hex'),
        crcHash: crc32(bytes).toString(16).padStart(8, '0'),
      });
    }
  });

  it('answers 404 for a missing file, 400 for a folder or a bad url', async () => {
    await suite.master.post('/directories', { path: 'dir' });
    expect((await suite.master.post('/files/fileInfo', { url: 'missing.txt' })).status).toBe(404);
    const folder = await suite.master.post('/files/fileInfo', { url: 'dir' });
    expect(folder.status).toBe(400);
    expect(await folder.json()).toMatchObject({ code: 605 });
    expect((await suite.master.post('/files/fileInfo', {})).status).toBe(400);
    expect((await suite.master.post('/files/fileInfo', { url: '../x' })).status).toBe(400);
  });
});

describe('GET /__admin/files?name=', () => {
  it('finds entries at any depth below the location by name, case and accents ignored, in path order, paged', async () => {
    await suite.master.put([
      { name: 'Café.png', content: '', path: 'gallery' },
      { name: 'cafe-menu.txt', content: '', path: 'gallery/2024/b' },
      { name: 'notes.txt', content: '', path: 'gallery/2024/a' },
      { name: 'CAFÉ', content: '', path: 'gallery/2024/a/z' },
      { name: 'cafe-x.txt', content: '', path: 'gallery/2024/Cafés' },
      { name: 'café.txt', content: '', path: 'elsewhere' },
    ]);
    const found = async (paging = '') => {
      const res = await suite.server.admin(`/__admin/files?path=gallery&name=cafe${paging}`);
      const body = (await res.json()) as { entries: { url: string }[]; total: number };
      return {
        total: body.total,
        paths: body.entries.map((entry) => decodeURIComponent(entry.url).replace('/dev-storage/gallery/', '')),
      };
    };
    // A folder comes before what it holds, and names compare by code point: `2024` before `Café.png`, `Cafés` before `a`.
    expect(await found()).toEqual({
      total: 5,
      paths: ['2024/Cafés', '2024/Cafés/cafe-x.txt', '2024/a/z/CAFÉ', '2024/b/cafe-menu.txt', 'Café.png'],
    });
    expect(await found('&page=1&pageSize=3')).toEqual({ total: 5, paths: ['2024/b/cafe-menu.txt', 'Café.png'] });
  });
});
