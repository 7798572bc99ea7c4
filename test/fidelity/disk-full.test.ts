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
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint]);
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

/** Uploads files named `names` into the folder `full`, 300 KiB each unless `size` says otherwise. */
function upload(
  url: string,
  token: string,
  ...[names, size = 300 * 1024]: [string | string[], number?]
): Promise<Response> {
  const form = new FormData();
  [names].flat().forEach((name, i) => {
    form.append(`fileItems[${i}].fileToUpload`, new File([new Uint8Array(size).fill(7)], name));
    form.append(`fileItems[${i}].path`, 'full');
  });
  return fetch(`${url}/files`, {
    method: 'POST',
    headers: { 'X-Service-Storage-Id': storageId, Authorization: `Bearer ${token}` },
    body: form,
  });
}

/** A JSON request of the files area. */
function files(url: string, token: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'X-Service-Storage-Id': storageId,
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

async function listed(url: string, token: string): Promise<string[]> {
  const res = await files(url, token, '/files/directoryInfo', { url: `/${storageId}/full`, pageNumber: 0 });
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
      const copy = await files(server.url, token, '/files/copy', {
        sourceUrls: ['full/original.bin'],
        forces: [false],
        destinationUrl: 'copies',
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

  it.skipIf(!ROOT)(
    'refuses a change of the files tree whole (507) once its log has no room, serves reads, keeps every answered change across SIGKILL and takes changes again once there is room (needs root)',
    async () => {
      await server?.kill('SIGKILL'); // the one the test before left running
      const dataDir = join(mountPoint, 'files-data');
      server = await startServerProcess(['--data-dir', dataDir]);
      const token = await masterToken(server.url);
      // Long names make each rename of the 20 files a large record (about 14 KB), so the room set aside runs out soon.
      let names = Array.from({ length: 20 }, (_, i) => `${String(i).padStart(2, '0')}${'n'.repeat(200)}.a`);
      expect((await upload(server.url, token, names, 10)).status).toBe(200);
      const url = (name: string) => `/${storageId}/full/${name}`;
      await fillLeaving(0);

      let answered = 0;
      let refused: Response | undefined;
      while (!refused && answered < 200) {
        const next = names.map((name) => name.slice(0, -1) + (name.endsWith('a') ? 'b' : 'a'));
        const items = names.map((name, i) => ({ pathToRename: `full/${name}`, newFileName: next[i] }));
        const res = await files(server.url, token, '/files/rename', { items });
        if (res.status === 200) {
          names = next;
          answered++;
        } else refused = res;
      }
      console.log(`renames of 20 files on a full tmpfs: ${answered} answered 200 before the first 507`);
      expect(refused?.status).toBe(507);
      expect(await refused?.json()).toMatchObject({ code: 30 });
      expect(await listed(server.url, token)).toEqual(names.map(url));
      // Reads go on.
      expect(await (await fetch(`${server.url}${url(names[0]!)}`)).arrayBuffer()).toHaveProperty('byteLength', 10);

      await server.kill('SIGKILL');
      server = await startServerProcess(['--data-dir', dataDir]);
      expect(await listed(server.url, token)).toEqual(names.map(url));

      // Room again: changes are taken, with no restart, and kept across SIGKILL.
      await rm(filler);
      const items = names.map((name) => ({ pathToRename: `full/${name}`, newFileName: `${name}.c` }));
      expect((await files(server.url, token, '/files/rename', { items })).status).toBe(200);
      names = names.map((name) => `${name}.c`);
      await server.kill('SIGKILL');
      server = await startServerProcess(['--data-dir', dataDir]);
      expect(await listed(server.url, token)).toEqual(names.map(url));
    },
    120_000,
  );
});
