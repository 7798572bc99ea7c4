import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_CONFIG, type Config, type ConfigInput } from '@basekit/engine';
import { startServer, type RunningServer } from '../../src/server.js';
import { closeAll } from '../support/server.js';

// Projects with a data folder: those created at run time and those of the config keep their state across restarts,
// each in a folder of its own.

const admin = { 'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey };
const json = { 'Content-Type': 'application/json' };

let dir: string;
const running: RunningServer[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'basekit-projects-'));
});
afterEach(async () => {
  await closeAll(running);
  await rm(dir, { recursive: true, force: true });
});

async function start(config: Partial<ConfigInput> = {}): Promise<RunningServer> {
  const server = await startServer({ port: 0, dataDir: dir, config });
  running.push(server);
  return server;
}

async function stop(server: RunningServer): Promise<void> {
  running.splice(running.indexOf(server), 1);
  await server.close();
}

async function ok(res: Promise<Response>): Promise<Record<string, unknown>> {
  const answer = await res;
  const body = (await answer.json()) as Record<string, unknown>;
  if (!answer.ok) throw new Error(`${answer.status} ${JSON.stringify(body)}`);
  return body;
}

async function createProject(server: RunningServer, body: Partial<ConfigInput> = {}): Promise<Config> {
  const res = await ok(
    fetch(`${server.url}/__admin/projects`, {
      method: 'POST',
      headers: { ...admin, ...json },
      body: JSON.stringify(body),
    }),
  );
  return res['config'] as Config;
}

/** Registers `username` in `config`'s project, logs in, and writes a row, a file and a score. */
async function fill(
  server: RunningServer,
  config: Config,
  username: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<void> {
  const users = { 'X-Service-Authentication-Id': config.authenticationId };
  await ok(
    fetch(`${server.url}/auth/users`, {
      method: 'POST',
      headers: { ...users, ...json },
      body: JSON.stringify({ username, password: 'pw' }),
    }),
  );
  const form = new FormData();
  form.set('username', username);
  form.set('password', 'pw');
  const tokens = await ok(
    fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { ...users, 'X-Service-Authentication-Key': config.clientKey },
      body: form,
    }),
  );
  const auth = { Authorization: `Bearer ${tokens['access_token'] as string}` };
  await ok(
    fetch(`${server.url}/object-storage/classes/Note`, {
      method: 'POST',
      headers: { 'X-Service-Object-Storage-Id': config.objectStorageId, ...auth, ...json },
      body: JSON.stringify({ by: username }),
    }),
  );
  const upload = new FormData();
  upload.append('fileItems[0].fileToUpload', new File([bytes], 'f.bin'));
  upload.append('fileItems[0].path', 'dir');
  await ok(
    fetch(`${server.url}/files`, {
      method: 'POST',
      headers: { 'X-Service-Storage-Id': config.storageId, ...auth },
      body: upload,
    }),
  );
  const event = { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: bytes.length }] };
  await ok(
    fetch(`${server.url}/game/events`, {
      method: 'POST',
      headers: { 'X-Service-Game-Id': config.gameId, ...auth, ...json },
      body: JSON.stringify(event),
    }),
  );
}

/** What a client of `config`'s project sees: its users' names, its rows, its file's bytes and its top scores. */
async function seen(server: RunningServer, config: Config) {
  const login = await ok(
    fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': config.authenticationId,
        'X-Service-Authentication-Key': config.masterKey,
      },
    }),
  );
  const master = { Authorization: `Bearer ${login['access_token'] as string}` };
  const users = await ok(
    fetch(`${server.url}/auth/users?page=0&pageSize=10`, {
      headers: { 'X-Service-Authentication-Id': config.authenticationId, ...master },
    }),
  );
  const rows = await ok(
    fetch(`${server.url}/object-storage/classes/query/Note`, {
      method: 'POST',
      headers: { 'X-Service-Object-Storage-Id': config.objectStorageId, ...master, ...json },
      body: '{}',
    }),
  );
  const file = await fetch(`${server.url}/${config.bucket}/dir/f.bin`);
  const top = await ok(
    fetch(`${server.url}/game/leaderboards/top/high-score?count=5`, {
      headers: { 'X-Service-Game-Id': config.gameId, ...master },
    }),
  );
  return {
    users: JSON.stringify(users).match(/"username":"[^"]+"/g),
    rows: (rows['results'] as { by: string }[]).map((r) => r.by),
    file: file.ok ? [...new Uint8Array(await file.arrayBuffer())] : file.status,
    scores: JSON.stringify(top['usersProfile']).match(/"scores?":\[?\d+/g),
  };
}

describe('projects in a data folder', () => {
  it('a project created at run time keeps its config and its state across a restart, its files in a folder of its own', async () => {
    const first = await start();
    const created = await createProject(first, { emailConfirmation: false });
    await fill(first, created, 'ann', new Uint8Array([1, 2, 3]));
    await fill(first, { ...first.engine.project.config }, 'bob', new Uint8Array([9]));
    const before = { created: await seen(first, created), default: await seen(first, first.engine.project.config) };
    expect(before.created).toEqual({
      users: ['"username":"ann"'],
      rows: ['ann'],
      file: [1, 2, 3],
      scores: expect.arrayContaining([expect.stringContaining('3')]),
    });
    expect(before.default).toMatchObject({ users: ['"username":"bob"'], rows: ['bob'], file: [9] });
    await stop(first);

    const second = await start();
    const list = (await ok(fetch(`${second.url}/__admin/projects`, { headers: admin })))['projects'] as {
      id: string;
      config: Config;
    }[];
    expect(list.map((p) => p.id)).toEqual([DEFAULT_CONFIG.authenticationId, created.authenticationId]);
    expect(list[1]!.config).toEqual(created);
    expect({ created: await seen(second, created), default: await seen(second, second.engine.project.config) }).toEqual(
      before,
    );
    // Each project's state and bytes are in its own folder: the default project's at the top, the others' apart.
    const folders = await readdir(join(dir, 'projects'));
    expect(folders).toHaveLength(1);
    expect(await readdir(join(dir, 'projects', folders[0]!))).toEqual(
      expect.arrayContaining(['blobs', 'journal', 'state', 'project.json']),
    );
  });

  it("a project's confirmation links lead to it after a restart, though they name no project", async () => {
    const first = await start();
    await createProject(first);
    const config = await createProject(first, { emailConfirmation: true });
    const headers = { 'X-Service-Authentication-Id': config.authenticationId, ...json };
    const body = JSON.stringify({ username: 'ann', password: 'pw', email: 'ann@example.com' });
    const { userId } = await ok(fetch(`${first.url}/auth/users`, { method: 'POST', headers, body }));
    const outbox = await ok(
      fetch(`${first.url}/__admin/outbox`, {
        headers: {
          'X-Service-Authentication-Id': config.authenticationId,
          'X-Service-Authentication-Key': config.masterKey,
        },
      }),
    );
    const link = new URL((outbox['messages'] as { link: string }[])[0]!.link).pathname;
    await stop(first);

    const second = await start();
    expect(await ok(fetch(`${second.url}${link}`))).toMatchObject({ userId, active: true });
  });

  it('survives a stop without a snapshot: the journal of each project replays', async () => {
    const first = await start();
    const created = await createProject(first);
    await fill(first, created, 'ann', new Uint8Array([4, 5]));
    const before = await seen(first, created);
    // A second server on the folder of one that never stopped (a crash): no snapshot was written.
    const second = await start();
    expect(await seen(second, created)).toEqual(before);
  });

  it("changes to several projects at once replay exactly: each journal keeps its own requests' random draws", async () => {
    const first = await start();
    const projects = [first.engine.project.config, await createProject(first), await createProject(first)];
    const exported = (server: RunningServer, config: Config) =>
      fetch(`${server.url}/__admin/projects/${config.authenticationId}/state`, { headers: admin }).then(async (res) => {
        const state = (await res.json()) as { clockOffsetMs?: number };
        delete state.clockOffsetMs; // real time minus server time, read at a slightly different moment each export
        return state;
      });
    // Registrations draw user ids, salts and secrets: many at once in every project, interleaved.
    await Promise.all(
      projects.flatMap((config, p) =>
        Array.from({ length: 15 }, (_, i) =>
          ok(
            fetch(`${first.url}/auth/users`, {
              method: 'POST',
              headers: { 'X-Service-Authentication-Id': config.authenticationId, ...json },
              body: JSON.stringify({ username: `u${p}-${i}`, password: 'pw' }),
            }),
          ),
        ),
      ),
    );
    const before = await Promise.all(projects.map((config) => exported(first, config)));
    // A second server on the folder of one that never stopped (a crash): every project replays its journal.
    const second = await start();
    expect(await Promise.all(projects.map((config) => exported(second, config)))).toEqual(before);
  });

  it('a deleted project is gone after a restart, and so is its folder', async () => {
    const first = await start();
    const created = await createProject(first);
    await fill(first, created, 'ann', new Uint8Array([1]));
    expect(await readdir(join(dir, 'projects'))).toHaveLength(1);
    expect(
      (await fetch(`${first.url}/__admin/projects/${created.authenticationId}`, { method: 'DELETE', headers: admin }))
        .status,
    ).toBe(204);
    expect(await readdir(join(dir, 'projects'))).toHaveLength(0);
    await stop(first);
    const second = await start();
    expect((await fetch(`${second.url}/__admin/projects/${created.authenticationId}`, { headers: admin })).status).toBe(
      404,
    );
  });

  it('a project of the config keeps its state across restarts; two projects with one id stop the start', async () => {
    const declared = {
      authenticationId: 'second',
      clientKey: 'c2',
      masterKey: 'm2',
      objectStorageId: 'db2',
      storageId: 'st2',
      gameId: 'g2',
      events: DEFAULT_CONFIG.events,
      leaderboards: DEFAULT_CONFIG.leaderboards,
    };
    const first = await start({ projects: [declared] });
    const config = first.engine.projects.registry.get('second')!.project.config;
    await fill(first, config, 'cid', new Uint8Array([7, 7]));
    const before = await seen(first, config);
    await stop(first);
    const second = await start({ projects: [declared] });
    expect(await seen(second, config)).toEqual(before);
    await stop(second);
    await expect(
      startServer({
        port: 0,
        dataDir: dir,
        config: { projects: [declared, { ...declared, authenticationId: 'third' }] },
      }),
    ).rejects.toThrow(ConfigError);
    await expect(
      startServer({ port: 0, dataDir: dir, config: { projects: [{ ...declared, dataDir: '/elsewhere' }] } }),
    ).rejects.toThrow(/projects\.0: "dataDir" is a key of the whole server/);
  });
});
