// Uploads with --data-dir go to the worker threads that hash and write them: socket chunks are moved there whole
// and freed there, only the pieces that share a chunk with a boundary are copied. The edges of that path, through the
// real server and, where the chunks' edges must be exact, through the server's own capabilities.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, readdir, readlink, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FileSink, readMultipart } from '../../../packages/engine/src/shared/http/multipart.js';
import { diskStorage } from '../../src/files/disk.js';
import { byteSearch, keepRequestBody, requestBody } from '../../src/request-body.js';
import type { TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';
import { downloadPath, masterClient, ownServers, storageHeaders } from './support.js';

const MiB = 1024 * 1024;
const BOUNDARY = 'basekit-worker-test';
const text = (s: string) => new TextEncoder().encode(s);
const md5Of = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const crcOf = (bytes: Uint8Array) => crc32(bytes).toString(16).padStart(8, '0');
const fileHead = (index: number, name: string) =>
  text(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="fileItems[${index}].fileToUpload"; filename="${name}"\r\n\r\n`,
  );
/** Cuts `bytes` into pieces of `size` (the last one shorter), each with a buffer of its own, as a socket's reads. */
const piecesOf = (bytes: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size));

/**
 * Two files whose body is cut so that the delimiter after the first is split across two pieces, and the second
 * file's last byte ends a piece (its delimiter starts the next one).
 */
function awkwardBody(first: Uint8Array, second: Uint8Array): Uint8Array[] {
  const between = text(`\r\n--${BOUNDARY}\r\n`);
  const pieces = [fileHead(0, 'first.bin'), ...piecesOf(first.subarray(0, first.length - 100), 64 * 1024)];
  pieces.push(new Uint8Array([...first.subarray(first.length - 100), ...between.subarray(0, 5)]));
  const secondHead = fileHead(1, 'second.bin').subarray(BOUNDARY.length + 4); // after "--BOUNDARY\r\n"
  pieces.push(new Uint8Array([...between.subarray(5), ...secondHead]));
  pieces.push(...piecesOf(second, 64 * 1024));
  pieces.push(text(`\r\n--${BOUNDARY}--\r\n`));
  return pieces;
}

/**
 * Sends an upload over a connection of its own, each piece a write of its own after a pause (so that the server
 * mostly reads them apart, as separate chunks). `cutAfter`: the connection is destroyed after that many pieces and
 * nothing is answered. Answers the status and body.
 */
async function socketUpload(
  server: TestServer,
  pieces: Uint8Array[],
  { cutAfter, onCut }: { cutAfter?: number; onCut?: () => Promise<void> } = {},
): Promise<{ status: number; body: string } | undefined> {
  const { hostname, port } = new URL(server.url);
  const headers = storageHeaders(server, await masterAuth(server));
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const socket = connect(Number(port), hostname);
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /files HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\nContent-Length: ${length}\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      '\r\n',
  );
  for (const [i, piece] of pieces.entries()) {
    if (i === cutAfter) {
      await onCut?.();
      socket.destroy();
      await closed;
      return undefined;
    }
    await new Promise((resolve) => socket.write(piece, resolve));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await closed;
  const answer = Buffer.concat(received).toString();
  return { status: Number(answer.split(' ')[1]), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) };
}

async function fileInfo(server: TestServer, url: string) {
  const res = await (await masterClient(server)).post('/files/fileInfo', { url });
  return (await res.json()) as { md5Hash: string; crcHash: string; fileSizeInBytes: number };
}

async function downloaded(server: TestServer, saved: string): Promise<Buffer> {
  return Buffer.from(await (await server.request(downloadPath(server, saved))).arrayBuffer());
}

/** Waits until `check` holds, polling (the server works on its own schedule). */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out waiting');
}

const temporaries = async (blobs: string) => (await readdir(blobs)).filter((name) => name.startsWith('.tmp-'));

const { start, folder } = ownServers();

describe('uploads with --data-dir, hashed and written by the worker thread', () => {
  it('store each file whole when a delimiter is split across socket chunks and a file ends at a chunk end', async () => {
    const server = await start({ dataDir: folder('awkward') });
    const first = new Uint8Array(randomBytes(3 * MiB + 17));
    const second = new Uint8Array(randomBytes(2 * 64 * 1024)); // ends exactly at the end of a piece
    const answer = await socketUpload(server, awkwardBody(first, second));
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ savedFilesUrls: ['first.bin', 'second.bin'] }) });
    for (const [name, bytes] of [
      ['first.bin', first],
      ['second.bin', second],
    ] as const) {
      expect(await fileInfo(server, name)).toMatchObject({
        md5Hash: md5Of(bytes),
        crcHash: crcOf(bytes),
        fileSizeInBytes: bytes.length,
      });
      expect((await downloaded(server, name)).equals(bytes)).toBe(true);
    }
  });

  it('leave no file and no stuck worker when the client goes away in the middle of a file', async () => {
    const dataDir = folder('cut');
    const blobs = join(dataDir, 'blobs');
    const server = await start({ dataDir });
    const content = new Uint8Array(randomBytes(8 * MiB));
    const pieces = [fileHead(0, 'cut.bin'), ...piecesOf(content, 64 * 1024)];
    const cut = await socketUpload(server, pieces, {
      cutAfter: 100, // 6.25 MiB sent
      // The worker has written some of it: the cut comes while the file is being written.
      onCut: () => until(async () => (await temporaries(blobs)).length === 1),
    });
    expect(cut).toBeUndefined();
    await until(async () => (await readdir(blobs)).length === 0);
    // The worker goes on with the next upload, and the process holds no temporary file open.
    const next = new Uint8Array(randomBytes(3 * MiB));
    await (await masterClient(server)).put([{ name: 'next.bin', content: next }]);
    expect((await fileInfo(server, 'next.bin')).md5Hash).toBe(md5Of(next));
    const open = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
    );
    expect(open.filter((target) => target.startsWith(join(blobs, '.tmp-')))).toEqual([]);
  });

  it('flush each file to the disk before it is renamed into place with fsync "always", and not with "never"', async () => {
    // Which files `FileHandle#sync` was called on, by the path of the descriptor at the time.
    const handle = await open(join(tmpdir(), '.'), 'r');
    const prototype = Object.getPrototypeOf(handle) as { sync(this: { fd: number }): Promise<void> };
    await handle.close();
    const synced: string[] = [];
    const sync = prototype.sync;
    const spy = vi.spyOn(prototype, 'sync').mockImplementation(async function (this: { fd: number }) {
      synced.push(await readlink(`/proc/self/fd/${this.fd}`).catch(() => ''));
      return sync.call(this);
    });
    try {
      for (const fsync of ['always', 'never'] as const) {
        synced.length = 0;
        const blobs = join(folder(fsync), 'blobs');
        const server = await start({ dataDir: folder(fsync), fsync });
        const content = new Uint8Array(randomBytes(3 * MiB));
        await (await masterClient(server)).put([{ name: 'synced.bin', content }]);
        expect((await fileInfo(server, 'synced.bin')).md5Hash).toBe(md5Of(content));
        const files = synced.filter((path) => path.startsWith(join(blobs, '.tmp-')));
        expect(files).toHaveLength(fsync === 'always' ? 1 : 0);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

// A data folder on a file system that fills for real (a tmpfs: mounting needs root, which CI has).
describe.skipIf(process.getuid?.() !== 0)('uploads with --data-dir on a disk that fills', () => {
  let mountPoint: string;
  beforeAll(async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'basekit-full-upload-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mountPoint]);
  });
  afterAll(async () => {
    execFileSync('umount', ['--lazy', mountPoint]);
    await rm(mountPoint, { recursive: true, force: true });
  });

  it('answer 507 when the disk fills in the middle of a file, keep nothing of it, and take the next upload (needs root: mounts a tmpfs)', async () => {
    const dataDir = join(mountPoint, 'data');
    const server = await start({ dataDir });
    const big = new Uint8Array(randomBytes(12 * MiB));
    const res = await server.request('/files', {
      method: 'POST',
      headers: storageHeaders(server, await masterAuth(server)),
      body: (() => {
        const form = new FormData();
        form.append('fileItems[0].fileToUpload', new Blob([big]), 'big.bin');
        return form;
      })(),
    });
    expect(res.status).toBe(507);
    expect(((await res.json()) as { code: number }).code).toBe(30);
    expect(await readdir(join(dataDir, 'blobs'))).toEqual([]);
    const small = new Uint8Array(randomBytes(MiB));
    await (await masterClient(server)).put([{ name: 'small.bin', content: small }]);
    expect((await fileInfo(server, 'small.bin')).md5Hash).toBe(md5Of(small));
    expect((await stat(join(dataDir, 'blobs'))).isDirectory()).toBe(true);
  });
});

describe("the server's capabilities under the parser, chunk by chunk", () => {
  it('move whole socket chunks to the worker, free them there, and copy only those that share a chunk with a boundary', async () => {
    // No CR in the files: a piece ending in one would be held back as a delimiter's possible start, and copied.
    const noCr = (size: number) => new Uint8Array(randomBytes(size)).map((byte) => (byte === 13 ? 14 : byte));
    const first = noCr(MiB + 300);
    const second = noCr(128 * 1024);
    const pieces = awkwardBody(first, second);
    const incoming = Object.assign(Readable.from(pieces), {
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    });
    const request = new Request('http://localhost/files', { method: 'POST' });
    keepRequestBody(request, incoming);
    // What the workers send back to this thread: the moved buffers must not come back (here each would count as
    // new outside memory, and V8 ran a full collection every 30 MiB or so of upload), only the 1 MiB copy buffers.
    const replies = vi.spyOn(Worker.prototype, 'emit');
    const dir = await mkdtemp(join(tmpdir(), 'basekit-worker-chunks-'));
    try {
      const { blobs } = await diskStorage(dir, 'never');
      let key = 0;
      const parts = await readMultipart(
        requestBody(request)![Symbol.asyncIterator](),
        BOUNDARY,
        { bytes: 10 * MiB, parts: 10, fieldBytes: 1000 },
        async (): Promise<FileSink<string>> => {
          const writer = await blobs.createHashed!(`k${key++}`);
          return {
            write: (chunk) => writer.write(chunk),
            end: async () => {
              const { md5, crc } = await writer.end();
              await writer.commit();
              return `${md5} ${crc}`;
            },
          };
        },
        byteSearch,
      );
      expect(parts.map((part) => part.file)).toEqual([
        `${md5Of(first)} ${crcOf(first)}`,
        `${md5Of(second)} ${crcOf(second)}`,
      ]);
      expect((await readFile(join(dir, 'blobs', 'k0'))).equals(first)).toBe(true);
      expect((await readFile(join(dir, 'blobs', 'k1'))).equals(second)).toBe(true);
      // Moved: the buffers of the pieces wholly inside a file are detached here; the pieces holding a boundary or
      // part headers were read by the parser and their file bytes copied, so they are still here.
      // Pieces: the first part's headers, the first file in 16 pieces of 64 KiB and one of 200 bytes, its last 100
      // bytes with the delimiter's first 5, the rest of the delimiter with the second part's headers, the second file
      // in 2 pieces, the closing delimiter.
      expect(pieces.map((piece) => piece.buffer.byteLength === 0)).toEqual([
        false,
        ...Array(17).fill(true),
        false,
        false,
        true,
        true,
        false,
      ]);
      const returned = replies.mock.calls
        .filter(([event]) => event === 'message')
        .flatMap(([, reply]) => (reply as { buffers?: ArrayBuffer[] }).buffers ?? []);
      expect(returned.length).toBeGreaterThan(0);
      expect(returned.map((buffer) => buffer.byteLength)).toEqual(returned.map(() => MiB));
    } finally {
      replies.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
