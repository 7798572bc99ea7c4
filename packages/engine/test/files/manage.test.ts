import { beforeEach, describe, expect, it } from 'vitest';
import { downloadPath, storageSuite } from './support.js';

const suite = storageSuite();

/** Every file below `url` as `saved path: content` (empty folders as `path/: ''`), read through listing and download. */
async function tree(url = '/'): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (let page = 0; ; page++) {
    const res = await suite.master.post('/files/directoryInfo', { url, pageNumber: page, pageSize: 50 });
    const { files } = (await res.json()) as {
      files: { url: string; isDirectory: boolean; numberOfTotalChildren: number }[];
    };
    for (const record of files) {
      const path = record.url.replace('/dev-storage/', '');
      if (!record.isDirectory) out[path] = await (await suite.server.request(record.url)).text();
      else if (record.numberOfTotalChildren === 0) out[`${path}/`] = '';
      else Object.assign(out, await tree(record.url));
    }
    if (files.length < 50) return out;
  }
}

async function expectStatus(res: Response, status: number, code?: number): Promise<void> {
  const body = await res.json();
  expect([res.status, body]).toEqual([
    status,
    status === 200 ? body : { code: code ?? expect.any(Number), error: expect.any(String) },
  ]);
}

describe('POST /files/delete', () => {
  beforeEach(async () => {
    await suite.master.put([
      { name: 'a.txt', content: 'a', path: 'p' },
      { name: 'b.txt', content: 'b', path: 'p' },
      { name: 'c.txt', content: 'c', path: 'p/full' },
      { name: 'd.txt', content: 'd', path: 'q' },
    ]);
    await suite.master.post('/directories', { path: 'p/empty' });
  });

  it('deletes files and folders of one parent; a non-empty folder needs forced true', async () => {
    await expectStatus(
      await suite.user.post('/files/delete', { urls: ['p/a.txt', 'p/empty'], forced: [false, false] }),
      200,
    );
    await expectStatus(
      await suite.user.post('/files/delete', { urls: ['p/b.txt', 'p/full'], forced: [false, false] }),
      417,
      608,
    );
    expect(await tree()).toEqual({ 'p/b.txt': 'b', 'p/full/c.txt': 'c', 'q/d.txt': 'd' });
    await expectStatus(
      await suite.user.post('/files/delete', { urls: ['/dev-storage/p/full', 'p/b.txt'], forced: [true, false] }),
      200,
    );
    expect(await tree()).toEqual({ 'p/': '', 'q/d.txt': 'd' });
    expect((await suite.server.request(downloadPath(suite.server, 'p/full/c.txt'))).status).toBe(404);
  });

  it('refuses urls of different parents (417), a missing file (404) and the root (400), deleting nothing', async () => {
    const before = await tree();
    await expectStatus(
      await suite.user.post('/files/delete', { urls: ['p/a.txt', 'q/d.txt'], forced: [false, false] }),
      417,
      603,
    );
    await expectStatus(
      await suite.user.post('/files/delete', { urls: ['p/a.txt', 'p/nope.txt'], forced: [false, false] }),
      404,
      602,
    );
    await expectStatus(await suite.user.post('/files/delete', { urls: ['/'], forced: [true] }), 400);
    await expectStatus(await suite.user.post('/files/delete', { urls: ['/dev-storage'], forced: [true] }), 400);
    expect(await tree()).toEqual(before);
  });

  it('answers 400 for malformed bodies', async () => {
    for (const body of [
      {},
      { urls: [] },
      { urls: 'p/a.txt' },
      { urls: [1] },
      { urls: ['p/a.txt'], forced: [true, false] },
      { urls: ['p/a.txt'], forced: ['yes'] },
      { urls: ['p/a.txt', 'p/a.txt'] },
    ]) {
      const res = await suite.user.post('/files/delete', body);
      expect([body, res.status]).toEqual([body, 400]);
    }
  });

  it('deletes at most 1000 files, counting the files inside named folders (417 beyond)', async () => {
    const batch = (from: number, count: number, path: string) =>
      Array.from({ length: count }, (_, i) => ({ name: `f${from + i}`, content: '', path }));
    for (let i = 0; i < 1000; i += 250) await suite.master.put(batch(i, 250, 'bulk/one'));
    await suite.master.put(batch(0, 1, 'bulk/two'));
    await expectStatus(
      await suite.user.post('/files/delete', { urls: ['bulk/one', 'bulk/two'], forced: [true, true] }),
      417,
      604,
    );
    expect(Object.keys(await tree('bulk'))).toHaveLength(1001);
    await expectStatus(await suite.user.post('/files/delete', { urls: ['bulk/one'], forced: [true] }), 200);
    expect(Object.keys(await tree('bulk'))).toEqual(['bulk/two/f0']);
  });
});

describe('POST /files/copy and /files/move', () => {
  beforeEach(async () => {
    await suite.master.put([
      { name: 'a.txt', content: 'a', path: 'src' },
      { name: 'b.txt', content: 'b', path: 'src/sub' },
      { name: 'old.txt', content: 'old', path: 'dst/sub' },
      { name: 'a.txt', content: 'dst a', path: 'dst' },
    ]);
  });

  it('copies files and folders into a folder, answering the new saved paths', async () => {
    const res = await suite.master.post('/files/copy', {
      sourceUrls: ['src/a.txt', 'src/sub'],
      forces: [false, false],
      destinationUrl: 'new/place',
    });
    expect(await res.json()).toEqual({ newPaths: ['new/place/a.txt', 'new/place/sub'] });
    expect(await tree('new')).toEqual({ 'new/place/a.txt': 'a', 'new/place/sub/b.txt': 'b' });
    expect(await tree('src')).toEqual({ 'src/a.txt': 'a', 'src/sub/b.txt': 'b' });
  });

  it('needs forces true for a source that exists at the destination; folders are then merged and files replaced', async () => {
    const sources = { sourceUrls: ['src/a.txt', 'src/sub'], destinationUrl: 'dst' };
    await expectStatus(await suite.master.post('/files/copy', { ...sources, forces: [false, true] }), 417, 601);
    await expectStatus(await suite.master.post('/files/copy', { ...sources, forces: [true, false] }), 417, 601);
    expect(await tree('dst')).toEqual({ 'dst/a.txt': 'dst a', 'dst/sub/old.txt': 'old' });
    await expectStatus(await suite.master.post('/files/copy', { ...sources, forces: [true, true] }), 200);
    expect(await tree('dst')).toEqual({ 'dst/a.txt': 'a', 'dst/sub/b.txt': 'b', 'dst/sub/old.txt': 'old' });
  });

  it('moves: the sources leave their folder, merged into the destination', async () => {
    const res = await suite.master.post('/files/move', {
      sourceUrls: ['/dev-storage/src/sub', 'src/a.txt'],
      forces: [true, true],
      destinationUrl: '/dev-storage/dst',
    });
    expect(await res.json()).toEqual({ newPaths: ['dst/sub', 'dst/a.txt'] });
    expect(await tree()).toEqual({ 'src/': '', 'dst/a.txt': 'a', 'dst/sub/b.txt': 'b', 'dst/sub/old.txt': 'old' });
  });

  it('keeps a moved file its guid and gives a copy a new one', async () => {
    const info = async (url: string) =>
      ((await (await suite.master.post('/files/fileInfo', { url })).json()) as { guid: string }).guid;
    const guid = await info('src/a.txt');
    await suite.master.post('/files/copy', { sourceUrls: ['src/a.txt'], forces: [false], destinationUrl: 'c' });
    await suite.master.post('/files/move', { sourceUrls: ['src/a.txt'], forces: [false], destinationUrl: 'm' });
    expect(await info('m/a.txt')).toBe(guid);
    expect(await info('c/a.txt')).not.toBe(guid);
  });

  it('refuses a file over a folder even when forced (417), and changes nothing', async () => {
    await suite.master.put([{ name: 'sub', content: 'a file named sub', path: 'other' }]);
    await expectStatus(
      await suite.master.post('/files/move', { sourceUrls: ['src/sub'], forces: [true], destinationUrl: 'other' }),
      417,
      601,
    );
    expect(await tree('other')).toEqual({ 'other/sub': 'a file named sub' });
    expect(await tree('src')).toEqual({ 'src/a.txt': 'a', 'src/sub/b.txt': 'b' });
  });

  it('refuses sources of different parents (417), missing sources (404), and a folder into itself (400)', async () => {
    await expectStatus(
      await suite.master.post('/files/copy', {
        sourceUrls: ['src/a.txt', 'dst/a.txt'],
        forces: [true, true],
        destinationUrl: 'x',
      }),
      417,
      603,
    );
    await expectStatus(
      await suite.master.post('/files/move', { sourceUrls: ['src/none.txt'], forces: [false], destinationUrl: 'x' }),
      404,
      602,
    );
    await expectStatus(
      await suite.master.post('/files/move', {
        sourceUrls: ['src/sub'],
        forces: [false],
        destinationUrl: 'src/sub/inner',
      }),
      400,
    );
    await expectStatus(
      await suite.master.post('/files/copy', { sourceUrls: ['src/a.txt'], forces: [true], destinationUrl: 'src' }),
      400,
    );
    await expectStatus(
      await suite.master.post('/files/copy', { sourceUrls: ['/'], forces: [true], destinationUrl: 'x' }),
      400,
    );
    for (const body of [
      { sourceUrls: ['src/a.txt'], forces: [false] },
      { sourceUrls: [], destinationUrl: 'x' },
      { sourceUrls: ['src/a.txt'], forces: [1], destinationUrl: 'x' },
    ]) {
      expect((await suite.master.post('/files/copy', body)).status).toBe(400);
    }
    expect(await tree()).toEqual({
      'src/a.txt': 'a',
      'src/sub/b.txt': 'b',
      'dst/a.txt': 'dst a',
      'dst/sub/old.txt': 'old',
    });
  });

  it('copies at most 100 elements with their children (417 beyond)', async () => {
    await suite.master.put(Array.from({ length: 99 }, (_, i) => ({ name: `f${i}`, content: '', path: 'hundred/box' })));
    // box + 99 files = 100 elements
    await expectStatus(
      await suite.master.post('/files/copy', { sourceUrls: ['hundred/box'], forces: [false], destinationUrl: 'copy1' }),
      200,
    );
    await suite.master.put([{ name: 'one-more', content: '', path: 'hundred/box' }]);
    await expectStatus(
      await suite.master.post('/files/copy', { sourceUrls: ['hundred/box'], forces: [false], destinationUrl: 'copy2' }),
      417,
      604,
    );
    await expectStatus(
      await suite.master.post('/files/move', { sourceUrls: ['hundred/box'], forces: [false], destinationUrl: 'copy2' }),
      417,
      604,
    );
    expect((await suite.master.post('/files/directoryInfo', { url: 'copy2' })).status).toBe(404);
  });
});

describe('POST /files/rename', () => {
  beforeEach(async () => {
    await suite.master.put([
      { name: 'photo.jpg', content: 'jpg', path: 'r' },
      { name: 'other.txt', content: 'o', path: 'r' },
    ]);
    await suite.master.post('/directories', { path: 'r/folder' });
  });

  it('renames files and answers their new saved paths', async () => {
    const res = await suite.user.post('/files/rename', {
      items: [
        { pathToRename: 'r/photo.jpg', newFileName: 'my cat.png' },
        { pathToRename: '/dev-storage/r/other.txt', newFileName: 'notes.txt' },
      ],
    });
    expect(await res.json()).toEqual({ newPaths: ['r/my%20cat.png', 'r/notes.txt'] });
    expect(await tree('r')).toEqual({ 'r/my%20cat.png': 'jpg', 'r/notes.txt': 'o', 'r/folder/': '' });
    expect((await suite.server.request(downloadPath(suite.server, 'r/my%20cat.png'))).headers.get('content-type')).toBe(
      'image/png',
    );
  });

  it('refuses folders (400), missing files (404), a taken name (417) and bad names (400), renaming nothing', async () => {
    const rename = (pathToRename: unknown, newFileName: unknown) =>
      suite.user.post('/files/rename', {
        items: [
          { pathToRename: 'r/other.txt', newFileName: 'fine.txt' },
          { pathToRename, newFileName },
        ],
      });
    await expectStatus(await rename('r/folder', 'renamed'), 400, 605);
    await expectStatus(await rename('r/missing.txt', 'x.txt'), 404, 602);
    await expectStatus(await rename('r/photo.jpg', 'folder'), 417, 601);
    for (const bad of ['', '..', 'a/b', 'a\\b', 'nul\u0000', 'x'.repeat(256), 5])
      await expectStatus(await rename('r/photo.jpg', bad), 400);
    for (const body of [{}, { items: [] }, { items: ['r/photo.jpg'] }])
      await expectStatus(await suite.user.post('/files/rename', body), 400);
    expect(await tree('r')).toEqual({ 'r/photo.jpg': 'jpg', 'r/other.txt': 'o', 'r/folder/': '' });
  });
});
