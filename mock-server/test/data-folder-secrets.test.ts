import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, StateRestoreError } from '@basekit/engine';
import { startServer, type RunningServer } from '../src/server.js';
import { closeAll } from './support/server.js';

// What the data folder holds: no password, token or key as sent (the journal keeps what requests worked out from
// them), every file for its owner alone, and a format a later server names when it cannot replay it.

const { authenticationId, clientKey, masterKey, objectStorageId } = DEFAULT_CONFIG;
const json = { 'Content-Type': 'application/json' };
const byId = { 'X-Service-Authentication-Id': authenticationId };

let dir: string;
const running: RunningServer[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'basekit-secrets-'));
});
afterEach(async () => {
  await closeAll(running);
  await rm(dir, { recursive: true, force: true });
});

async function start(dataDir = dir): Promise<RunningServer> {
  const server = await startServer({ port: 0, dataDir });
  running.push(server);
  return server;
}

async function ok(response: Promise<Response>): Promise<Record<string, string>> {
  const res = await response;
  const body = (await res.json()) as Record<string, string>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

function login(server: RunningServer, fields: Record<string, string>, refresh = false): Promise<Response> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: {
      ...byId,
      'X-Service-Authentication-Key': clientKey,
      ...(refresh && { 'X-Service-Authentication-Refresh': '1' }),
    },
    body,
  });
}

/**
 * Every file under `folder` with its bytes and mode, and every folder's mode. A file the running server removes
 * between the listing and the read (a journal file a compaction replaced) holds nothing any more and is left out.
 */
async function walk(folder: string, files = new Map<string, { text: string; mode: number }>(), folders: number[] = []) {
  folders.push((await stat(folder)).mode & 0o777);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await walk(path, files, folders);
    else {
      const file = await readKept(path);
      if (file) files.set(path, file);
    }
  }
  return { files, folders };
}

async function readKept(path: string): Promise<{ text: string; mode: number } | undefined> {
  try {
    const [bytes, stats] = await Promise.all([readFile(path), stat(path)]);
    return { text: bytes.toString('latin1'), mode: stats.mode & 0o777 };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Copies what `walk` read into `to`, as a server killed at that moment leaves its folder (`cp` fails on a file removed meanwhile). */
async function copyWalked(from: string, to: string): Promise<void> {
  for (const [path, { text, mode }] of (await walk(from)).files) {
    const copy = join(to, relative(from, path));
    await mkdir(dirname(copy), { recursive: true, mode: 0o700 });
    await writeFile(copy, text, { encoding: 'latin1', mode });
  }
}

async function expectNoneKept(secrets: Record<string, string>): Promise<void> {
  const { files } = await walk(dir);
  for (const [path, { text }] of files)
    for (const [what, secret] of Object.entries(secrets))
      expect(text.includes(secret), `${what} in ${path}`).toBe(false);
}

describe('the data folder', () => {
  it('keeps no password, token or key as sent, in the journal or the snapshot, and a restart still honours them', async () => {
    let server = await start();
    const password = 'pw-Secret-4711';
    await ok(
      fetch(`${server.url}/auth/users`, {
        method: 'POST',
        headers: { ...byId, ...json },
        body: JSON.stringify({ username: 'ann', password }),
      }),
    );
    const session = await ok(login(server, { username: 'ann', password }));
    const other = await ok(login(server, { username: 'ann', password }));
    const renewed = await ok(login(server, { refresh_token: session['refresh_token']! }, true));
    await ok(
      fetch(`${server.url}/auth/logout?refresh-token=${other['refresh_token']!}`, {
        method: 'DELETE',
        headers: { ...byId, 'X-Service-Authentication-Key': clientKey },
      }),
    );
    const guest = await ok(fetch(`${server.url}/auth/guest-users`, { method: 'POST', headers: byId }));
    const master = await ok(
      fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { ...byId, 'X-Service-Authentication-Key': masterKey },
      }),
    );
    const newPassword = 'pw-Guest-0815';
    await ok(
      fetch(`${server.url}/auth/guest-users/complete-registration-master`, {
        method: 'POST',
        headers: { ...byId, Authorization: `Bearer ${master['access_token']!}`, ...json },
        body: JSON.stringify({
          userId: guest['userId'],
          newUsername: 'bob',
          lastPassword: guest['password'],
          newPassword,
        }),
      }),
    );
    const row = await ok(
      fetch(`${server.url}/object-storage/classes/Note`, {
        method: 'POST',
        headers: {
          'X-Service-Object-Storage-Id': objectStorageId,
          Authorization: `Bearer ${renewed['access_token']!}`,
          ...json,
        },
        body: JSON.stringify({ text: 'hello' }),
      }),
    );
    await ok(
      fetch(`${server.url}/__admin/clock`, {
        method: 'POST',
        headers: { 'X-Service-Authentication-Key': masterKey, ...json },
        body: JSON.stringify({ advanceSeconds: 1 }),
      }),
    );
    // A project of its own has its folder too (its record holds its keys: its config).
    await ok(
      fetch(`${server.url}/__admin/projects`, {
        method: 'POST',
        headers: { 'X-Service-Authentication-Key': masterKey, ...json },
        body: '{}',
      }),
    );
    const signature = (token: string) => token.slice(token.lastIndexOf('.') + 1);
    const secrets = {
      password,
      newPassword,
      'guest password': guest['password']!,
      'refresh token': session['refresh_token']!,
      'logged-out refresh token': other['refresh_token']!,
      'access token': signature(session['access_token']!),
      'renewed access token': signature(renewed['access_token']!),
      'master token': signature(master['access_token']!),
      'master key': masterKey,
      'client key': clientKey,
    };
    await expectNoneKept(secrets); // the journal
    const crashed = `${dir}-crashed`;
    await copyWalked(dir, crashed);
    await server.close(); // a snapshot
    await expectNoneKept(secrets);

    const { files, folders } = await walk(dir);
    expect([...files.keys()].some((path) => path.includes('/projects/'))).toBe(true);
    expect(new Set(folders.slice(1))).toEqual(new Set([0o700]));
    expect(new Set([...files.values()].map((f) => f.mode))).toEqual(new Set([0o600]));

    // What they worked out is kept: each secret does as it did, after a clean stop and after a crash (the journal).
    for (const folder of [dir, crashed]) {
      server = await start(folder);
      expect((await login(server, { username: 'ann', password })).status).toBe(200);
      expect((await login(server, { username: 'bob', password: newPassword })).status).toBe(200);
      expect((await login(server, { refresh_token: session['refresh_token']! }, true)).status).toBe(200);
      expect((await login(server, { refresh_token: other['refresh_token']! }, true)).status).toBe(401);
      const read = await fetch(`${server.url}/object-storage/classes/Note/${row['_id']!}`, {
        headers: {
          'X-Service-Object-Storage-Id': objectStorageId,
          Authorization: `Bearer ${renewed['access_token']!}`,
        },
      });
      expect(read.status).toBe(200);
      expect(server.restored?.diverged).toBe(0);
    }
    await rm(crashed, { recursive: true, force: true });
  });

  it('replays a journal whose records were kept before their secrets were stripped (format 1)', async () => {
    const record = {
      kind: 'request',
      method: 'POST',
      url: 'http://127.0.0.1:1/auth/users',
      headers: [
        ['x-service-authentication-id', authenticationId],
        ['content-type', 'application/json'],
      ],
      body: Buffer.from(JSON.stringify({ username: 'old', password: 'pw-old' })).toString('base64'),
      timeMs: Date.now(),
      random: Buffer.alloc(64, 3).toString('base64'),
    };
    await writeJournal([record]);
    const server = await start();
    expect((await login(server, { username: 'old', password: 'pw-old' })).status).toBe(200);
  });

  it('refuses a journal or snapshot of a later format in one line naming it, and leaves the folder as it was', async () => {
    for (const [write, named] of [
      [() => writeJournal([{ v: 3, kind: 'slice', key: 'users', json: {} }]), 'record 1 of its journal is of format 3'],
      [
        () => writeFile(join(dir, 'journal', 'snapshot.json'), JSON.stringify({ basekitJournal: 2, generation: 0 })),
        'it is of snapshot format 2',
      ],
      [
        () =>
          writeFile(
            join(dir, 'journal', 'snapshot.json'),
            JSON.stringify({ basekitJournal: 1, generation: 0, state: { basekitSnapshot: 3 } }),
          ),
        'its snapshot is of format 3',
      ],
    ] as const) {
      // A folder a server left, then written by a later version.
      await rm(dir, { recursive: true, force: true });
      await (await start()).close();
      running.length = 0;
      await write();
      const before = await walk(dir);
      const refusal = await startServer({ port: 0, dataDir: dir }).then(
        (s) => void running.push(s),
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(StateRestoreError);
      const message = (refusal as Error).message;
      expect(message).toContain(named);
      expect(message).not.toContain('\n');
      expect(await walk(dir)).toEqual(before);
    }
  });
});

/** A journal file holding `records`, as a server of the format each names would have written it. */
async function writeJournal(records: unknown[]): Promise<void> {
  const lines = records.map((record) => {
    const text = JSON.stringify(record);
    return `${crc32(text).toString(16).padStart(8, '0')} ${text}\n`;
  });
  await mkdir(join(dir, 'journal'), { recursive: true });
  for (const name of await readdir(join(dir, 'journal'))) await rm(join(dir, 'journal', name));
  await writeFile(join(dir, 'journal', 'journal-0.log'), lines.join(''));
}
