import { beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../support/users.js';
import { type StorageClient, downloadPath, storageClient, storageSuite } from './support.js';

// docs/files.md#ownership: a client token reaches "the caller's own operations and data". A user may replace, rename and delete
// only files that are theirs or have no owner (made with the master token); the master token may change anything.

const suite = storageSuite();
let bob: StorageClient;

beforeEach(async () => {
  bob = storageClient(suite.server, (await createUser(suite.server, 'bob')).auth);
});

/** The state export without the clock offset, which moves by itself. */
async function state(): Promise<string> {
  const { clockOffsetMs: _, ...rest } = (await (await suite.server.admin('/__admin/state')).json()) as Record<
    string,
    unknown
  >;
  return JSON.stringify(rest);
}

async function expectForbidden(send: () => Promise<Response>): Promise<void> {
  const before = await state();
  const res = await send();
  expect([res.status, await res.json()]).toEqual([403, { code: 119, error: expect.stringContaining('another user') }]);
  expect(await state(), 'a refused request changed the state').toBe(before);
}

const text = async (saved: string) => (await suite.server.request(downloadPath(suite.server, saved))).text();

describe("another user's files", () => {
  let annFile: string;
  beforeEach(async () => {
    annFile = (await suite.user.put([{ name: 'ann.txt', content: 'ann', path: 'shared' }]))[0]!;
  });

  it('cannot be replaced, and a multi-file upload then stores nothing', async () => {
    await expectForbidden(() =>
      bob.upload([
        { name: 'new.txt', content: 'x', path: 'shared' },
        { name: 'ann.txt', content: 'bob', path: 'shared', replacing: true },
      ]),
    );
    expect(await text(annFile)).toBe('ann');
  });

  it('cannot be renamed, and the other items of the request stay as they were', async () => {
    const [bobFile] = await bob.put([{ name: 'bob.txt', content: 'bob', path: 'shared' }]);
    await expectForbidden(() =>
      bob.post('/files/rename', {
        items: [
          { pathToRename: bobFile, newFileName: 'b2.txt' },
          { pathToRename: annFile, newFileName: 'mine.txt' },
        ],
      }),
    );
  });

  it('cannot be deleted, alone or beside own files', async () => {
    const [bobFile] = await bob.put([{ name: 'bob.txt', content: 'bob', path: 'shared' }]);
    await expectForbidden(() => bob.post('/files/delete', { urls: [annFile] }));
    await expectForbidden(() => bob.post('/files/delete', { urls: [bobFile, annFile] }));
  });

  it("cannot be deleted through the folder around them, even by that folder's creator", async () => {
    await bob.put([{ name: 'bob.txt', content: 'bob', path: 'shared' }]);
    await expectForbidden(() => bob.post('/files/delete', { urls: ['shared'], forced: [true] }));
    await expectForbidden(() => suite.user.post('/files/delete', { urls: ['shared'], forced: [true] }));
  });

  it("stay out of a user's reach on copy and move, which are master operations", async () => {
    for (const op of ['copy', 'move'])
      expect((await bob.post(`/files/${op}`, { sourceUrls: [annFile], destinationUrl: 'mine' })).status).toBe(401);
  });

  it('may be replaced, renamed and deleted by the master token, and keep their owner when replaced', async () => {
    await suite.master.put([{ name: 'ann.txt', content: 'master', path: 'shared', replacing: true }]);
    const info = (await (await suite.master.post('/files/fileInfo', { url: annFile })).json()) as { ownerId: string };
    expect(info.ownerId).toBe(suite.userId);
    const renamed = (await (
      await suite.master.post('/files/rename', { items: [{ pathToRename: annFile, newFileName: 'm.txt' }] })
    ).json()) as { newPaths: string[] };
    expect((await suite.master.post('/files/delete', { urls: renamed.newPaths })).status).toBe(200);
  });
});

describe('own and ownerless files', () => {
  it('a user replaces, renames and deletes their own files and folders', async () => {
    const [file] = await bob.put([{ name: 'b.txt', content: '1', path: 'mine/deep' }]);
    await bob.put([{ name: 'b.txt', content: '2', path: 'mine/deep', replacing: true }]);
    expect(await text(file!)).toBe('2');
    expect((await bob.post('/files/rename', { items: [{ pathToRename: file, newFileName: 'c.txt' }] })).status).toBe(
      200,
    );
    expect((await bob.post('/files/delete', { urls: ['mine'], forced: [true] })).status).toBe(200);
  });

  it('any user changes files made with the master token, which stay ownerless when a user replaces them', async () => {
    const [file] = await suite.master.put([{ name: 'm.txt', content: 'master', path: 'common' }]);
    await bob.put([{ name: 'm.txt', content: 'bob', path: 'common', replacing: true }]);
    const info = (await (await suite.master.post('/files/fileInfo', { url: file })).json()) as {
      ownerId: string | null;
    };
    expect(info.ownerId).toBeNull();
    expect(
      (await suite.user.post('/files/rename', { items: [{ pathToRename: file, newFileName: 'n.txt' }] })).status,
    ).toBe(200);
    expect((await suite.user.post('/files/delete', { urls: ['common'], forced: [true] })).status).toBe(200);
  });

  it("a user may add new files to another user's folder", async () => {
    await suite.user.put([{ name: 'ann.txt', content: 'ann', path: 'shared' }]);
    expect((await bob.upload([{ name: 'bob.txt', content: 'bob', path: 'shared' }])).status).toBe(200);
  });
});
