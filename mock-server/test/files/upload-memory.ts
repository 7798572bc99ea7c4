import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG } from '@basekit/engine';

const MiB = 1024 * 1024;
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** What a server process held while one large file came in and went out again. */
export interface UploadMemory {
  size: number;
  /** Resident memory before the upload. */
  before: number;
  /** The peak of resident memory during the upload, less `before`. */
  uploadGrowth: number;
  /** The peak during a full download of the file, less the resident memory before it. */
  downloadGrowth: number;
  /** Whether the server's `md5Hash` and the downloaded bytes match what was sent. */
  intact: boolean;
  /** Upload throughput in MiB/s, as seen by the client. */
  uploadMiBps: number;
}

/** Resident memory of a process in bytes: now (`VmRSS`) and the peak since the last reset (`VmHWM`). */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** Resets the peak (`VmHWM`) to the current resident size and returns that size. */
async function resetPeak(pid: number): Promise<number> {
  await writeFile(`/proc/${pid}/clear_refs`, '5');
  return (await memory(pid)).rss;
}

async function startServer(
  dir: string,
  size: number,
  dataDir: string | undefined,
): Promise<{ child: ChildProcess; url: string }> {
  const config = join(dir, 'config.json');
  await writeFile(config, JSON.stringify({ ...DEFAULT_CONFIG, maxUploadBytes: size + MiB }));
  const args = [
    '--conditions=@basekit/source',
    '--import',
    'tsx',
    CLI,
    '--port',
    '0',
    '--config',
    config,
    ...(dataDir ? ['--data-dir', dataDir] : []),
  ];
  // A server process of its own, so that its memory is measured apart from the client's.
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url };
}

/** A multipart body of one file of `size` bytes, made 1 MiB at a time (a new buffer each time, as from a network). */
function uploadBody(boundary: string, size: number, md5: ReturnType<typeof createHash>): ReadableStream<Uint8Array> {
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].fileToUpload"; filename="big.bin"\r\n\r\n`,
  );
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(MiB).map((_, i) => (i * 7) % 251);
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(head),
    pull(controller) {
      if (sent === size) {
        controller.enqueue(tail);
        return controller.close();
      }
      md5.update(chunk);
      controller.enqueue(chunk.slice());
      sent += chunk.length;
    },
  });
}

/**
 * Starts a server process (in memory, or with a data folder), uploads one file of `size` bytes (a multiple of 1 MiB)
 * as a stream, downloads it again, and reports the server's resident memory on the way.
 *
 * @example
 * const { uploadGrowth } = await measureUploadMemory(256 * MiB, { dataDir: true });
 */
export async function measureUploadMemory(size: number, { dataDir = false } = {}): Promise<UploadMemory> {
  const dir = await mkdtemp(join(tmpdir(), 'basekit-upload-memory-'));
  const { child, url } = await startServer(dir, size, dataDir ? join(dir, 'data') : undefined);
  try {
    const pid = child.pid!;
    const login = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId,
        'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey,
      },
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const auth = { 'X-Service-Storage-Id': DEFAULT_CONFIG.storageId, Authorization: `Bearer ${token}` };
    const boundary = 'basekit-upload-memory';
    const sentMd5 = createHash('md5');

    const before = await resetPeak(pid);
    const started = performance.now();
    const res = await fetch(`${url}/files`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body: uploadBody(boundary, size, sentMd5),
      duplex: 'half',
    } as RequestInit);
    if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    const uploadMiBps = size / MiB / ((performance.now() - started) / 1000);
    const uploadGrowth = (await memory(pid)).peak - before;
    const expected = sentMd5.digest('hex');

    const info = await fetch(`${url}/files/fileInfo`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'big.bin' }),
    });
    const { md5Hash, fileSizeInBytes } = (await info.json()) as { md5Hash: string; fileSizeInBytes: number };

    const beforeDownload = await resetPeak(pid);
    const download = await fetch(`${url}/${DEFAULT_CONFIG.storageId}/big.bin`);
    if (download.status !== 200) throw new Error(`download answered ${download.status}`);
    const receivedMd5 = createHash('md5');
    const reader = download.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) receivedMd5.update(read.value);
    const downloadGrowth = (await memory(pid)).peak - beforeDownload;

    const intact = md5Hash === expected && fileSizeInBytes === size && receivedMd5.digest('hex') === expected;
    return { size, before, uploadGrowth, downloadGrowth, intact, uploadMiBps };
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}
