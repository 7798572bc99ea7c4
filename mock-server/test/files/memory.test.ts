import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@basekit/engine';

const MiB = 1024 * 1024;
const SIZE = 200 * MiB;
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

let dir: string;
let child: ChildProcess;
let url: string;

/** Resident memory of the server process in bytes: now (`VmRSS`) and the peak since the last reset (`VmHWM`). */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'basekit-memory-'));
  const config = join(dir, 'config.json');
  await writeFile(config, JSON.stringify({ ...DEFAULT_CONFIG, maxUploadBytes: 300 * MiB }));
  // A server process of its own, so that its memory is measured apart from the test's.
  child = spawn(process.execPath, ['--conditions=@basekit/source', '--import', 'tsx', CLI, '--port', '0', '--config', config], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}, 60_000);
afterAll(async () => {
  child?.kill();
  await rm(dir, { recursive: true, force: true });
});

it('keeps the server within about twice the file size while a 200 MiB upload comes in', async () => {
  const pid = child.pid!;
  const login = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId, 'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey } });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const boundary = 'basekit-memory-test';
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].fileToUpload"; filename="big.bin"\r\n\r\n`);
  const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(MiB).map((_, i) => (i * 7) % 251);
  const md5 = createHash('md5');
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(head),
    pull(controller) {
      if (sent === SIZE) {
        controller.enqueue(tail);
        return controller.close();
      }
      md5.update(chunk);
      controller.enqueue(chunk.slice()); // a new buffer each time, as from a network
      sent += chunk.length;
    },
  });

  await writeFile(`/proc/${pid}/clear_refs`, '5'); // resets the peak (VmHWM) to the current resident size
  const before = await memory(pid);
  const res = await fetch(`${url}/files`, {
    method: 'POST',
    headers: { 'X-Service-Storage-Id': DEFAULT_CONFIG.storageId, Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  expect(await res.json()).toEqual({ savedFilesUrls: ['big.bin'] });
  const after = await memory(pid);
  const growth = after.peak - before.rss;
  console.log(`200 MiB upload: server RSS ${Math.round(before.rss / MiB)} MiB before, peak ${Math.round(after.peak / MiB)} MiB (+${(growth / SIZE).toFixed(2)}× the file)`);
  // Request.formData() needs about 3×; the streaming parser about 2× (the parts, then each file in one piece), plus GC lag.
  expect(growth).toBeLessThan(2.5 * SIZE);

  const info = await fetch(`${url}/files/fileInfo`, {
    method: 'POST',
    headers: { 'X-Service-Storage-Id': DEFAULT_CONFIG.storageId, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: 'big.bin' }),
  });
  expect(await info.json()).toMatchObject({ fileSizeInBytes: SIZE, md5Hash: md5.digest('hex') });
}, 120_000);
