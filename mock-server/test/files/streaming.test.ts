import { readdir, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';
import { downloadPath, masterClient, ownServers, storageHeaders, streamedUpload } from './support.js';

const MiB = 1024 * 1024;
const content = new Uint8Array(MiB).map((_, i) => (i * 7) % 251);
const twice = Buffer.concat([content, content]);

const { start, folder } = ownServers();

/** Starts an upload whose body the test sends piece by piece; `answer` is the response once it comes. */
async function beginUpload(server: TestServer) {
  const upload = streamedUpload();
  const headers = { ...storageHeaders(server, await masterAuth(server)), 'Content-Type': upload.contentType };
  const answer = server.request('/files', {
    method: 'POST',
    headers,
    body: upload.body,
    duplex: 'half',
  } as RequestInit);
  return { upload, answer };
}

/** Waits until `check` holds, polling (the server works on its own schedule). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out waiting');
}

const files = (blobs: string) => readdir(blobs);
const temporaries = async (blobs: string) => (await files(blobs)).filter((name) => name.startsWith('.tmp-'));

describe('uploads with --data-dir', () => {
  it('go to a temporary file in the data folder as they arrive, renamed into place once accepted', async () => {
    const dataDir = folder('arrive');
    const blobs = join(dataDir, 'blobs');
    const server = await start({ dataDir });
    const { upload, answer } = await beginUpload(server);
    upload.file(0, 'big.bin');
    upload.send(content);
    // The first mebibyte is on disk while the body is still open.
    await until(async () => {
      const [temp] = await temporaries(blobs);
      return temp !== undefined && (await stat(join(blobs, temp))).size === MiB;
    });
    upload.send(content);
    upload.end();
    expect(await (await answer).json()).toEqual({ savedFilesUrls: ['big.bin'] });
    expect(await temporaries(blobs)).toEqual([]);
    expect(await files(blobs)).toHaveLength(1);
    const downloaded = new Uint8Array(await (await server.request(downloadPath(server, 'big.bin'))).arrayBuffer());
    expect(Buffer.from(downloaded).equals(twice)).toBe(true);
  });

  it('hold no file open while the other files of the upload come in', async ({ skip }) => {
    skip(process.platform !== 'linux', "Linux only: the process's open files are read from /proc/self/fd");
    const blobs = join(folder('descriptors'), 'blobs');
    const server = await start({ dataDir: folder('descriptors') });
    const { upload, answer } = await beginUpload(server);
    for (let i = 0; i < 50; i++) {
      upload.file(i, `f${i}.bin`);
      upload.send(content.subarray(0, 1000));
    }
    await until(async () => (await temporaries(blobs)).length === 50);
    // This process is the server: its open descriptors on temporary files are at most the one being written.
    const open = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
    );
    expect(open.filter((target) => target.startsWith(join(blobs, '.tmp-'))).length).toBeLessThanOrEqual(1);
    upload.end();
    expect(((await (await answer).json()) as { savedFilesUrls: string[] }).savedFilesUrls).toHaveLength(50);
    expect(await temporaries(blobs)).toEqual([]);
  });

  it('store nothing when refused after a file was written: a 417, a body cut short, a 413 past the limit', async () => {
    const dataDir = folder('refused');
    const blobs = join(dataDir, 'blobs');
    const server = await start({ dataDir, maxUploadBytes: 3 * MiB });
    await (await masterClient(server)).put([{ name: 'taken.txt', content: 'old' }]);
    const before = await files(blobs);

    const exists = await beginUpload(server);
    exists.upload.file(0, 'new.bin');
    exists.upload.send(content);
    exists.upload.file(1, 'taken.txt');
    exists.upload.send(content);
    exists.upload.field('fileItems[1].replacing', 'false');
    exists.upload.end();
    expect((await exists.answer).status).toBe(417);

    const cut = await beginUpload(server);
    cut.upload.file(0, 'cut.bin');
    cut.upload.send(content);
    cut.upload.cut();
    expect((await cut.answer).status).toBe(400);
    const listing = await (await masterClient(server)).post('/files/directoryInfo', { url: '/' });
    expect(((await listing.json()) as { files: { url: string }[] }).files.map((f) => f.url)).toEqual([
      '/dev-storage/taken.txt',
    ]);

    // Last: the server answers before the body is read, and the client's connection is not reused after that.
    const tooLarge = await beginUpload(server);
    tooLarge.upload.file(0, 'huge.bin');
    for (let i = 0; i < 4; i++) tooLarge.upload.send(content);
    tooLarge.upload.end();
    expect((await tooLarge.answer).status).toBe(413);

    await until(async () => (await files(blobs)).length === before.length);
    expect(await files(blobs)).toEqual(before);
  });
});

describe('uploads in memory', () => {
  it('land in the state as it is when they are accepted, even after an admin reset while the body came in', async () => {
    const server = await start();
    const { upload, answer } = await beginUpload(server);
    upload.file(0, 'across-reset.bin');
    // More than the sockets buffer between client and server: once the client took it all, the server is reading.
    for (let i = 0; i < 32; i++) upload.send(content);
    await until(async () => upload.taken());
    await server.reset();
    upload.send(content);
    upload.end();
    expect((await answer).status).toBe(200);
    const res = await server.request(downloadPath(server, 'across-reset.bin'));
    expect([res.status, res.headers.get('content-length')]).toEqual([200, String(33 * MiB)]);
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(32 * MiB)
        .equals(content),
    ).toBe(true);
  });
});
