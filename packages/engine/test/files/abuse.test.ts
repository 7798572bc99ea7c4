import { describe, expect, it } from 'vitest';
import { masterAuth } from '../support/users.js';
import { downloadPath, storageHeaders, storageSuite } from './support.js';

// Client values that reach a loop, an allocation or the tree, tried the way an attacker would.

const suite = storageSuite();

async function expectError(res: Response, status: number, code: number, message?: string): Promise<void> {
  expect([res.status, await res.json()]).toEqual([status, { code, error: message ?? expect.any(String) }]);
}

/** Four names of 200 characters: a folder path of 803 characters, well inside the 1024 limit. */
const DEEP = Array.from({ length: 4 }, (_, i) => String(i).repeat(200)).join('/');

describe('path sizes', () => {
  it('refuses a huge text field of an upload while it streams in', async () => {
    const form = new FormData();
    form.append('fileItems[0].fileToUpload', new Blob(['x']), 'a.txt');
    form.append('fileItems[0].path', 'a/'.repeat(5 * 1024 * 1024));
    const started = performance.now();
    const res = await suite.server.request('/files', {
      method: 'POST',
      headers: storageHeaders(suite.server, await masterAuth(suite.server)),
      body: form,
    });
    await expectError(res, 400, 142, 'the form field "fileItems[0].path" is longer than 16384 bytes');
    // It took 88 s; a fraction of a second now. The bound only tells the two apart, on any machine.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('refuses a huge url in a JSON body the same way', async () => {
    await expectError(
      await suite.user.post('/files/delete', { urls: ['a/'.repeat(200_000)] }),
      400,
      600,
      '"urls" is longer than 16384 characters',
    );
  });

  it('refuses an upload whose folder and name together pass 1024 characters, so no stored file is out of reach', async () => {
    await expectError(
      await suite.user.upload([{ name: `${'n'.repeat(250)}.txt`, content: 'x', path: DEEP }]),
      400,
      600,
    );
    const [saved] = await suite.user.put([{ name: `${'n'.repeat(200)}.txt`, content: 'x', path: DEEP }]);
    expect((await suite.server.request(downloadPath(suite.server, saved!))).status).toBe(200);
  });

  it('refuses a rename that would make the path longer than 1024 characters', async () => {
    const [saved] = await suite.user.put([{ name: 'short.txt', content: 'x', path: DEEP }]);
    await expectError(
      await suite.user.post('/files/rename', {
        items: [{ pathToRename: saved, newFileName: `${'n'.repeat(250)}.txt` }],
      }),
      400,
      600,
    );
  });

  it('refuses a copy or move that would put a file deeper than 1024 characters', async () => {
    await suite.master.put([{ name: `${'n'.repeat(250)}.txt`, content: 'x', path: 'src/inner' }]);
    for (const op of ['copy', 'move']) {
      await expectError(
        await suite.master.post(`/files/${op}`, { sourceUrls: ['src/inner'], destinationUrl: DEEP }),
        400,
        600,
      );
    }
    expect(
      (await suite.master.post('/files/copy', { sourceUrls: ['src/inner'], destinationUrl: 'shallow' })).status,
    ).toBe(200);
  });
});

describe('request sizes', () => {
  it('renames at most 1000 files at once, like delete (417, code 604)', async () => {
    const items = Array.from({ length: 1001 }, (_, i) => ({ pathToRename: `f${i}.txt`, newFileName: `g${i}.txt` }));
    await expectError(await suite.user.post('/files/rename', { items }), 417, 604);
  });
});

describe('download headers', () => {
  it('refuses a download name that would break the header (CR, LF, NUL)', async () => {
    const [saved] = await suite.user.put([{ name: 'a.txt', content: 'x' }]);
    for (const name of ['a\r\nSet-Cookie: x=1', 'a\nb', 'a\u0000b']) {
      await expectError(
        await suite.server.request(`${downloadPath(suite.server, saved!)}?name=${encodeURIComponent(name)}`),
        400,
        142,
      );
    }
  });
});

describe('state import', () => {
  it('refuses a blob key that could name a path, so no later download reaches outside the store', async () => {
    const state = (await (await suite.server.admin('/__admin/state')).json()) as { areas: Record<string, unknown> };
    const entry = {
      path: 'x.txt',
      kind: 'file',
      guid: 'g',
      ownerId: null,
      creationDate: 1,
      lastModificationDate: 1,
      size: 1,
      md5Hash: 'm',
      crcHash: 'c',
      contentType: 'text/plain',
      blobKey: '../../etc/passwd',
    };
    state.areas['files'] = { entries: [entry], blobs: {} };
    const res = await suite.server.admin('/__admin/state', {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(state),
    });
    await expectError(res, 400, 142);
  });
});
