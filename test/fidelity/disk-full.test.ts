import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readdir, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@basekit/engine';
import { startServerProcess, type ServerProcess } from './support/cli.js';

/**
 * A data folder on a small file system that fills for real (a tmpfs), driven through the CLI as a user would: a full
 * disk answers 507 and changes nothing, reads go on, every write answered 2xx survives SIGKILL, and writes are taken
 * again once there is room, with no restart. Mounting needs root (CI runs as root); elsewhere it is skipped for that
 * reason alone. Figures: docs/reliability.md#a-full-disk.
 */
const ROOT = process.getuid?.() === 0;
const CREATES = 600;
const { authenticationId, masterKey, objectStorageId, storageId } = DEFAULT_CONFIG;

let mountPoint: string;
let server: ServerProcess | undefined;
let filler: string;

beforeAll(async () => {
  if (!ROOT) return;
  mountPoint = await mkdtemp(join(tmpdir(), 'basekit-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint]);
  filler = join(mountPoint, 'filler');
});

afterAll(async () => {
  if (!ROOT) return;
  await server?.kill('SIGKILL');
  execFileSync('umount', [mountPoint]);
  await rm(mountPoint, { recursive: true, force: true });
});

/** Fills the file system up, then gives `room` bytes of it back. */
async function fillLeaving(room: number): Promise<void> {
  const file = await open(filler, 'a');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) await file.write(chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await file.close();
  }
  const { size } = await stat(filler);
  await truncate(filler, Math.max(0, size - room));
}

async function masterToken(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': masterKey },
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

function createRow(url: string, token: string, n: number): Promise<Response> {
  return fetch(`${url}/object-storage/classes/Item`, {
    method: 'POST',
    headers: {
      'X-Service-Object-Storage-Id': objectStorageId,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ n, text: 'x'.repeat(200) }),
  });
}

function readRow(url: string, token: string, id: string): Promise<Response> {
  return fetch(`${url}/object-storage/classes/Item/${id}`, {
    headers: { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${token}` },
  });
}

function upload(url: string, token: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append('fileItems[0].fileToUpload', new File([new Uint8Array(300 * 1024).fill(7)], name));
  form.append('fileItems[0].path', 'full');
  return fetch(`${url}/files`, {
    method: 'POST',
    headers: { 'X-Service-Storage-Id': storageId, Authorization: `Bearer ${token}` },
    body: form,
  });
}

async function listed(url: string, token: string): Promise<string[]> {
  const res = await fetch(`${url}/files/directoryInfo`, {
    method: 'POST',
    headers: {
      'X-Service-Storage-Id': storageId,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ url: `/${storageId}/full`, pageNumber: 0 }),
  });
  if (res.status === 404) return [];
  const body = (await res.json()) as { files?: { url: string }[] };
  return (body.files ?? []).map((f) => f.url);
}

describe('a full disk under --data-dir', () => {
  it.skipIf(!ROOT)(
    'answers 507 and changes nothing, serves reads, keeps every 201 across SIGKILL and takes writes again once there is room (needs root: mounts a tmpfs)',
    async () => {
      const dataDir = join(mountPoint, 'data');
      server = await startServerProcess(['--data-dir', dataDir]);
      const token = await masterToken(server.url);
      expect((await upload(server.url, token, 'original.bin')).status).toBe(200);
      await fillLeaving(200 * 1024);

      const statuses = new Map<number, number>();
      const created: string[] = [];
      for (let n = 0; n < CREATES; n += 4) {
        const answers = await Promise.all([0, 1, 2, 3].map((i) => createRow(server!.url, token, n + i)));
        for (const res of answers) {
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const body = (await res.json()) as { _id?: string; code?: number; error?: string };
          if (res.status === 201) created.push(body._id!);
          else expect(body).toMatchObject({ code: 30, error: expect.stringContaining('disk is full') });
        }
      }
      console.log(`${CREATES} creates on a full tmpfs: ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect([...statuses.keys()].sort()).toEqual([201, 507]);
      expect(created.length).toBeGreaterThan(50);

      // Reads go on; a full disk refuses an upload whole.
      expect((await readRow(server.url, token, created.at(-1)!)).status).toBe(200);
      const refused = await upload(server.url, token, 'big.bin');
      expect(refused.status).toBe(507);
      expect(await refused.json()).toMatchObject({ code: 30 });
      const copy = await fetch(`${server.url}/files/copy`, {
        method: 'POST',
        headers: {
          'X-Service-Storage-Id': storageId,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ sourceUrls: ['full/original.bin'], forces: [false], destinationUrl: 'copies' }),
      });
      expect(copy.status).toBe(507);
      expect(await listed(server.url, token)).toEqual([`/${storageId}/full/original.bin`]);
      // Nothing the refused changes wrote is left behind: the bytes of the one file, and nothing else.
      expect(await readdir(join(dataDir, 'blobs'))).toHaveLength(1);

      // Killed and started again on the full disk (the master token of before still holds: a log-in is a change).
      await server.kill('SIGKILL');
      server = await startServerProcess(['--data-dir', dataDir]);
      for (const id of created) expect((await readRow(server.url, token, id)).status, id).toBe(200);

      // Room again: writes are taken, with no restart.
      await rm(filler);
      const more = await createRow(server.url, token, -1);
      expect(more.status).toBe(201);
      expect((await upload(server.url, token, 'big.bin')).status).toBe(200);
      expect(await listed(server.url, token)).toEqual([
        `/${storageId}/full/big.bin`,
        `/${storageId}/full/original.bin`,
      ]);

      await server.kill('SIGKILL');
      server = await startServerProcess(['--data-dir', dataDir]);
      const last = ((await more.json()) as { _id: string })._id;
      expect((await readRow(server.url, token, last)).status).toBe(200);
      expect(await listed(server.url, token)).toEqual([
        `/${storageId}/full/big.bin`,
        `/${storageId}/full/original.bin`,
      ]);
    },
    120_000,
  );
});
