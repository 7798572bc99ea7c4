import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, StateRestoreError } from '@basekit/engine';
import { startServer, type RunningServer } from '../src/server.js';
import { closeAll } from './support/server.js';

const { authenticationId, clientKey, masterKey, objectStorageId, gameId } = DEFAULT_CONFIG;
const admin = { 'X-Service-Authentication-Key': masterKey };
const json = { 'Content-Type': 'application/json' };

let dir: string;
const running: RunningServer[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'basekit-state-'));
});
afterEach(async () => {
  await closeAll(running);
  await rm(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const server = await startServer({ port: 0, dataDir: dir, config: { emailConfirmation: true }, ...options });
  running.push(server);
  return server;
}

async function call(server: RunningServer, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, init);
}

/** A master access token of the server's project. */
const masterToken = async (server: RunningServer) =>
  (
    (await ok(
      call(server, '/auth/login', {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': authenticationId, ...admin },
      }),
    )) as { access_token: string }
  ).access_token;

/** Moves the server's clock forward by `seconds` (`POST /__admin/clock`). */
const advanceClock = (server: RunningServer, seconds: number) =>
  ok(
    call(server, '/__admin/clock', {
      method: 'POST',
      headers: { ...admin, ...json },
      body: JSON.stringify({ advanceSeconds: seconds }),
    }),
  );

/** Changes the server's config at run time (`PATCH /__admin/config`). */
const patchConfig = (server: RunningServer, patch: Record<string, unknown>) =>
  ok(call(server, '/__admin/config', { method: 'PATCH', headers: { ...admin, ...json }, body: JSON.stringify(patch) }));

async function ok(response: Promise<Response>): Promise<Record<string, unknown>> {
  const res = await response;
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

function form(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return body;
}

/** One write of every kind of state the journal keeps; answers what a restart must still let a client do. */
async function writeEveryKind(server: RunningServer) {
  const registered = await ok(
    call(server, '/auth/users', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, ...json },
      body: JSON.stringify({ username: 'ann', password: 'pw-ann', email: 'ann@example.com' }),
    }),
  );
  const outbox = await ok(call(server, '/__admin/outbox', { headers: admin }));
  const link = (outbox['messages'] as { link: string }[])[0]!.link;
  expect((await call(server, new URL(link).pathname)).status).toBe(200);
  const tokens = await ok(
    call(server, '/auth/login', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': clientKey },
      body: form({ username: 'ann', password: 'pw-ann' }),
    }),
  );
  const user = { Authorization: `Bearer ${tokens['access_token'] as string}` };
  const db = { 'X-Service-Object-Storage-Id': objectStorageId, ...user, ...json };
  const team = await ok(
    call(server, '/object-storage/classes/Team', {
      method: 'POST',
      headers: db,
      body: JSON.stringify({ name: 'red' }),
    }),
  );
  const row = await ok(
    call(server, '/object-storage/classes/Player', {
      method: 'POST',
      headers: db,
      body: JSON.stringify({
        name: 'ann',
        score: { __op: 'Increment', amount: 3 },
        born: { __type: 'Date', iso: '2020-01-02T03:04:05.006Z' },
        ACL: { [registered['userId'] as string]: { read: true, write: true } },
        teams: { __op: 'AddRelation', objects: [{ __type: 'Pointer', className: 'Team', _id: team['_id'] }] },
      }),
    }),
  );
  await ok(
    call(server, `/object-storage/classes/Player/${row['_id'] as string}`, {
      method: 'PUT',
      headers: db,
      body: JSON.stringify({ score: { __op: 'Increment', amount: 2 } }),
    }),
  );
  const game = { 'X-Service-Game-Id': gameId, ...user, ...json };
  await ok(
    call(server, '/game/events', {
      method: 'POST',
      headers: game,
      body: JSON.stringify({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 120 }] }),
    }),
  );
  await ok(
    call(server, '/metadata/upload', {
      method: 'POST',
      headers: { ...user, ...json },
      body: JSON.stringify({ name: 'storage', default: true, url: 'http://127.0.0.1:9/none' }),
    }),
  );
  await ok(
    call(server, '/metadata/thumbnail', {
      method: 'POST',
      headers: { ...user, ...json },
      body: JSON.stringify({ name: 'two-shots', default: true, shots: ['00:00:01'] }),
    }),
  );
  // Its job fails (nothing listens on port 9): it ends REJECTED, and the journal keeps how it ended.
  await ok(
    call(server, '/video/convert', {
      method: 'POST',
      headers: { ...user, ...json },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/video.mp4', upload: true, thumbnail: true }),
    }),
  );
  await expect
    .poll(
      async () =>
        ((await ok(call(server, '/__admin/jobs', { headers: admin })))['jobs'] as { state: string }[])[0]?.state,
    )
    .toBe('rejected');
  await patchConfig(server, { accessTokenTtlSeconds: 3600 });
  await advanceClock(server, 60);
  return { user, refreshToken: tokens['refresh_token'] as string, rowId: row['_id'] as string };
}

const exported = async (server: RunningServer) =>
  (await ok(call(server, '/__admin/state', { headers: admin }))) as {
    clockOffsetMs: number;
    areas: Record<string, unknown>;
  };

describe('every state under --data-dir', () => {
  it('a server started on the folder of one that never stopped (a crash) rebuilds exactly its state', async () => {
    const first = await start();
    const { user, refreshToken, rowId } = await writeEveryKind(first);
    const before = await exported(first);
    const config = await ok(call(first, '/__admin/config', { headers: admin }));

    const second = await start();
    expect(second.restored).toMatchObject({ snapshot: false, diverged: 0 });
    expect(second.restored!.records).toBeGreaterThan(8);
    expect(await exported(second)).toEqual(before);
    expect(await ok(call(second, '/__admin/config', { headers: admin }))).toEqual(config);
    // Tokens issued before the restart keep working: the access token, and the refresh token for a renewal.
    expect(
      (await call(second, '/auth/users/me', { headers: { 'X-Service-Authentication-Id': authenticationId, ...user } }))
        .status,
    ).toBe(200);
    const renewal = await call(second, '/auth/login', {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': authenticationId,
        'X-Service-Authentication-Key': clientKey,
        'X-Service-Authentication-Refresh': '1',
      },
      body: form({ refresh_token: refreshToken }),
    });
    expect(renewal.status).toBe(200);
    const row = await ok(
      call(second, `/object-storage/classes/Player/${rowId}`, {
        headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...user },
      }),
    );
    expect(row['score']).toBe(5);
  });

  it('a clean stop folds the journal into a snapshot, and the next start reads it', async () => {
    const first = await start();
    await writeEveryKind(first);
    const before = await exported(first);
    await first.close();
    expect((await readdir(join(dir, 'journal'))).sort()).toEqual(['journal-1.log', 'snapshot.json']);
    const second = await start();
    expect(second.restored).toMatchObject({ snapshot: true, records: 0, diverged: 0 });
    const after = await exported(second);
    // Jobs under way when the server stopped end REJECTED; everything else is as it was.
    const jobs = (after.areas['transcoder'] as { jobs: { state: string; reason?: string }[] }).jobs;
    for (const job of jobs) expect(job).toMatchObject({ state: expect.stringMatching(/^(complete|rejected)$/) });
    expect({ ...after, areas: { ...after.areas, transcoder: undefined } }).toEqual({
      ...before,
      areas: { ...before.areas, transcoder: undefined },
    });
  });

  it('drops a torn last record at start-up and keeps every record before it', async () => {
    const first = await start();
    await advanceClock(first, 10);
    const log = join(dir, 'journal', 'journal-0.log');
    const whole = await readFile(log);
    await writeFile(log, Buffer.concat([whole, whole.subarray(0, whole.length - 5)])); // a second record cut short
    const second = await start();
    expect(second.restored).toMatchObject({ records: 1, dropped: expect.stringContaining('torn last record') });
    expect((await exported(second)).clockOffsetMs).toBe(10_000);
    // The start folded the record into a snapshot (before any further change): the torn bytes are gone for good.
    await advanceClock(second, 0);
    expect((await readdir(join(dir, 'journal'))).sort()).toEqual(['journal-1.log', 'snapshot.json']);
  });

  it('refuses a damaged or foreign snapshot with a message naming it, and leaves it as it was', async () => {
    const first = await start();
    await first.close();
    const snapshot = join(dir, 'journal', 'snapshot.json');
    for (const content of ['{"basekitJournal": 1, "generation": 1, "state": {"basek', '{"some": "other file"}']) {
      await writeFile(snapshot, content);
      const failed = await startServer({ port: 0, dataDir: dir }).then(
        (server) => void running.push(server),
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(StateRestoreError);
      expect((failed as Error).message).toContain(snapshot);
      expect(await readFile(snapshot, 'utf8')).toBe(content);
    }
  });

  it('answers a body past its limit 413 as in memory (read no further than the limit) and keeps nothing of it', async () => {
    const server = await start({ config: { maxJsonBodyBytes: 2048 } });
    const token = await masterToken(server);
    const headers = { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${token}`, ...json };
    const big = JSON.stringify({ text: 'x'.repeat(10_000) });
    const chunked = () =>
      new ReadableStream<Uint8Array>({
        start: (c) => {
          c.enqueue(new TextEncoder().encode(big));
          c.close();
        },
      });
    for (const body of [big, chunked()]) {
      const res = await call(server, '/object-storage/classes/Big', {
        method: 'POST',
        headers,
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: expect.any(Number), error: expect.any(String) });
    }
    expect(
      (
        await call(server, '/object-storage/classes/Big', {
          method: 'POST',
          headers,
          body: JSON.stringify({ text: 'small' }),
        })
      ).status,
    ).toBe(201);
    const log = (await readFile(join(dir, 'journal', 'journal-0.log'), 'utf8')).trim().split('\n');
    expect(log.filter((line) => line.includes('/object-storage/classes/Big'))).toHaveLength(1);
  });

  it('lets other changes through while an upload is still coming in, and keeps both', async () => {
    const server = await start();
    const token = await masterToken(server);
    const boundary = 'b0undary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].fileToUpload"; filename="slow.txt"\r\nContent-Type: text/plain\r\n\r\n`;
    const tail = `\r\n--${boundary}\r\nContent-Disposition: form-data; name="fileItems[0].path"\r\n\r\nslow\r\n--${boundary}--\r\n`;
    let finish!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(new TextEncoder().encode(`${head}first half, `));
        finish = () => {
          controller.enqueue(new TextEncoder().encode(`second half${tail}`));
          controller.close();
        };
      },
    });
    const upload = call(server, '/files', {
      method: 'POST',
      headers: {
        'X-Service-Storage-Id': DEFAULT_CONFIG.storageId,
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = await ok(
      call(server, '/object-storage/classes/Beside', {
        method: 'POST',
        headers: { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${token}`, ...json },
        body: JSON.stringify({ n: 1 }),
      }),
    );
    finish();
    expect((await upload).status).toBe(200);
    const second = await start();
    expect(
      (
        await call(second, `/object-storage/classes/Beside/${row['_id'] as string}`, {
          headers: { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(200);
    expect(await (await call(second, `/${DEFAULT_CONFIG.storageId}/slow/slow.txt`)).text()).toBe(
      'first half, second half',
    );
  });

  it('refuses a record it cannot replay (a journal of another version) with a message naming the folder', async () => {
    const first = await start();
    await first.close();
    const json = Buffer.from(JSON.stringify({ kind: 'slice', key: 'no-such-area', json: {} }));
    await writeFile(
      join(dir, 'journal', 'journal-1.log'),
      `${crc32(json).toString(16).padStart(8, '0')} ${json.toString()}\n`,
    );
    const failed = await startServer({ port: 0, dataDir: dir }).then(
      (server) => void running.push(server),
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(StateRestoreError);
    expect((failed as Error).message).toContain(join(dir, 'journal'));
    expect((failed as Error).message).toContain('record 1 of the journal cannot be replayed');
  });

  it('refuses a journal whose snapshot is missing, rather than start without its records', async () => {
    const first = await start();
    await first.close(); // a snapshot of generation 1 and journal-1.log
    const second = await start();
    await advanceClock(second, 1);
    await rm(join(dir, 'journal', 'snapshot.json'));
    await rm(join(dir, 'journal', 'snapshot.previous.json'), { force: true });
    const failed = await startServer({ port: 0, dataDir: dir }).then(
      (server) => void running.push(server),
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(StateRestoreError);
    expect((failed as Error).message).toContain('journal-1.log');
    expect((await readFile(join(dir, 'journal', 'journal-1.log'))).length).toBeGreaterThan(0);
  });

  it('--import starts from an export, a reset returns to it and to the start config, and a folder with a state keeps its own', async () => {
    const source = await startServer({ port: 0, config: { emailConfirmation: true } });
    running.push(source);
    await writeEveryKind(source);
    const fixture = await exported(source);
    // Files are compared elsewhere: a data folder keeps their bytes on disk, not in the export.
    const areas = async (server: RunningServer) => ({ ...(await exported(server)).areas, files: undefined });
    const server = await start({ initialState: fixture });
    expect(await areas(server)).toEqual({ ...fixture.areas, files: undefined });
    await patchConfig(server, { maxRowBytes: 4096 });
    await advanceClock(server, 30);
    await ok(call(server, '/__admin/reset', { method: 'POST', headers: admin }));
    expect(await areas(server)).toEqual({ ...fixture.areas, files: undefined });
    expect((await ok(call(server, '/__admin/config', { headers: admin })))['maxRowBytes']).toBe(131072);
    await advanceClock(server, 5);
    const kept = await exported(server);
    const again = await start({ initialState: { areas: {} } });
    expect(again.restored!.records).toBeGreaterThan(0);
    expect(await exported(again)).toEqual(kept);
  });
});
