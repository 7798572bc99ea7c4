import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@basekit/engine';
import { startServer, type RunningServer } from '../src/server.js';

// An export is the whole project: `GET /__admin/state` -> reset -> `PUT /__admin/state`, and the same export put into
// a fresh server, give the same export back and the same behaviour, for every kind of state and every setting.

const { authenticationId, clientKey, masterKey, objectStorageId, storageId, gameId } = DEFAULT_CONFIG;
const admin = { 'X-Service-Authentication-Key': masterKey };
const json = { 'Content-Type': 'application/json' };

type Json = Record<string, unknown>;

async function ok(response: Promise<Response>): Promise<Json> {
  const res = await response;
  const body = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

const call = (server: RunningServer, path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, init);
const exported = async (server: RunningServer) => ok(call(server, '/__admin/state', { headers: admin }));

function login(server: RunningServer, fields: Record<string, string>, refresh = false): Promise<Response> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return call(server, '/auth/login', {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': authenticationId,
      'X-Service-Authentication-Key': clientKey,
      ...(refresh && { 'X-Service-Authentication-Refresh': '1' }),
    },
    body,
  });
}

/** What the filled project lets a client do, to check after each round trip. */
interface Filled {
  refreshToken: string;
  access: string;
  rowId: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * One way to fill each area's state through the API, by the key of its slice. A new area (a new key in the export)
 * fails the test below until it has a filler here, so its state is round-tripped from the start.
 */
const FILLERS: Record<string, (server: RunningServer, filled: Filled) => Promise<void>> = {
  async users(server, filled) {
    await ok(
      call(server, '/auth/users', {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': authenticationId, ...json },
        body: JSON.stringify({ username: 'ann', password: 'pw-ann', email: 'ann@example.com' }),
      }),
    );
    const { messages } = (await ok(call(server, '/__admin/outbox', { headers: admin }))) as {
      messages: { link: string }[];
    };
    await ok(call(server, new URL(messages[0]!.link).pathname));
    const tokens = await ok(login(server, { username: 'ann', password: 'pw-ann' }));
    filled.refreshToken = tokens['refresh_token'] as string;
    filled.access = tokens['access_token'] as string;
  },
  async database(server, filled) {
    const row = await ok(
      call(server, '/object-storage/classes/Note', {
        method: 'POST',
        headers: { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${filled.access}`, ...json },
        body: JSON.stringify({ text: 'kept', when: { __type: 'Date', iso: '2020-01-02T03:04:05.006Z' } }),
      }),
    );
    filled.rowId = row['_id'] as string;
  },
  async files(server, filled) {
    const form = new FormData();
    form.append('fileItems[0].fileToUpload', new File([filled.bytes], 'a.bin'));
    form.append('fileItems[0].path', 'docs');
    await ok(
      call(server, '/files', {
        method: 'POST',
        headers: { 'X-Service-Storage-Id': storageId, Authorization: `Bearer ${filled.access}` },
        body: form,
      }),
    );
  },
  async leaderboards(server, filled) {
    await ok(
      call(server, '/game/events', {
        method: 'POST',
        headers: { 'X-Service-Game-Id': gameId, Authorization: `Bearer ${filled.access}`, ...json },
        body: JSON.stringify({ eventName: 'duel', fieldsAndValues: [{ fieldName: 'kills', value: 7 }] }),
      }),
    );
  },
  async transcoder(server, filled) {
    await ok(
      call(server, '/metadata/thumbnail', {
        method: 'POST',
        headers: { Authorization: `Bearer ${filled.access}`, ...json },
        body: JSON.stringify({ name: 'two-shots', default: true, shots: ['00:00:01'] }),
      }),
    );
  },
};

/** Settings changed at run time: the events and a leaderboard of its own, e-mail confirmation, a lifetime. */
const RUN_TIME_SETTINGS = {
  emailConfirmation: true,
  accessTokenTtlSeconds: 3600,
  events: [{ name: 'duel', fields: ['kills'] }],
  leaderboards: [{ id: 'most-kills', fields: [{ event: 'duel', field: 'kills' }], aggregation: 'sum', order: 'desc' }],
};

/** Everything a client could do with the filled project, done against `server`. */
async function expectSameBehaviour(server: RunningServer, filled: Filled): Promise<void> {
  expect((await login(server, { username: 'ann', password: 'pw-ann' })).status).toBe(200);
  // The session goes on through its refresh token, which the state keeps; an access token is the signing server's
  // own (signed with a secret of that server), so a client renews it on another server.
  const { access_token: access } = (await ok(login(server, { refresh_token: filled.refreshToken }, true))) as {
    access_token: string;
  };
  const user = { Authorization: `Bearer ${access}` };
  const row = await ok(
    call(server, `/object-storage/classes/Note/${filled.rowId}`, {
      headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...user },
    }),
  );
  expect(row).toMatchObject({ text: 'kept', when: { __type: 'Date', iso: '2020-01-02T03:04:05.006Z' } });
  const download = await call(server, `/${storageId}/docs/a.bin`);
  expect(new Uint8Array(await download.arrayBuffer())).toEqual(filled.bytes);
  const top = await ok(
    call(server, '/game/leaderboards/top/most-kills', { headers: { 'X-Service-Game-Id': gameId, ...user } }),
  );
  expect(JSON.stringify(top)).toContain('"ann"');
  expect(JSON.stringify(await ok(call(server, '/__admin/transcoder/settings', { headers: admin })))).toContain(
    'two-shots',
  );
  expect(await ok(call(server, '/__admin/config', { headers: admin }))).toMatchObject(RUN_TIME_SETTINGS);
  expect((await ok(call(server, '/__admin/clock', { headers: admin })))['offsetSeconds']).toBe(3600);
  expect(((await ok(call(server, '/__admin/outbox', { headers: admin })))['messages'] as unknown[]).length).toBe(1);
}

describe('an export is the whole project', () => {
  let server: RunningServer;
  let fresh: RunningServer;
  const filled: Filled = { refreshToken: '', access: '', rowId: '', bytes: Uint8Array.from([1, 2, 3, 250]) };
  let before: Json;

  beforeAll(async () => {
    server = await startServer({ port: 0 });
    // A fresh server that started with other settings: the export's must win.
    fresh = await startServer({ port: 0, config: { accessTokenTtlSeconds: 60, maxRowBytes: 4096 } });
    await ok(
      call(server, '/__admin/config', {
        method: 'PATCH',
        headers: { ...admin, ...json },
        body: JSON.stringify(RUN_TIME_SETTINGS),
      }),
    );
    await ok(
      call(server, '/__admin/clock', {
        method: 'POST',
        headers: { ...admin, ...json },
        body: JSON.stringify({ advanceSeconds: 3600 }),
      }),
    );
    for (const fill of Object.values(FILLERS)) await fill(server, filled);
    before = await exported(server);
  });
  afterAll(async () => {
    await server.close();
    await fresh.close();
  });

  it('has a filler for every kind of state, so that none is left out of the round trip', () => {
    expect(Object.keys(before['areas'] as Json).sort()).toEqual(Object.keys(FILLERS).sort());
    for (const [area, state] of Object.entries(before['areas'] as Json))
      expect(JSON.stringify(state), `${area} was filled`).not.toMatch(/^(\{\}|\[\]|null)$/);
  });

  it('carries every setting of the project but its identity', async () => {
    const config = await ok(call(server, '/__admin/config', { headers: admin }));
    const identity = ['authenticationId', 'objectStorageId', 'storageId', 'gameId', 'bucket', 'clientKey', 'masterKey'];
    const deployment = [
      'publicUrl',
      'journalCompactAfter',
      'dataDir',
      'fsync',
      'projects',
      'maxProjects',
      'headersTimeoutMs',
      'idleTimeoutMs',
    ];
    const settings = Object.keys(config).filter((key) => ![...identity, ...deployment].includes(key));
    expect(Object.keys(before['config'] as Json).sort()).toEqual(settings.sort());
  });

  it('gives the same export and behaviour after a reset and its import', async () => {
    await ok(call(server, '/__admin/reset', { method: 'POST', headers: admin }));
    expect((await exported(server))['config']).not.toEqual(before['config']);
    const answer = await ok(
      call(server, '/__admin/state', { method: 'PUT', headers: { ...admin, ...json }, body: JSON.stringify(before) }),
    );
    expect(answer['restored']).toMatchObject({
      clockOffsetSeconds: 3600,
      outbox: 1,
      areas: {
        users: { users: 1, sessions: 1 },
        database: { tables: 1, rows: 1 },
        files: { files: 1, folders: 1 },
        leaderboards: { leaderboards: 1, standings: 1 },
        transcoder: { settings: 1 },
      },
    });
    expect(await exported(server)).toEqual(before);
    await expectSameBehaviour(server, filled);
  });

  it('gives the same export and behaviour in a fresh server (its own ids and keys, the export settings)', async () => {
    await ok(
      call(fresh, '/__admin/state', { method: 'PUT', headers: { ...admin, ...json }, body: JSON.stringify(before) }),
    );
    expect(await exported(fresh)).toEqual(before);
    await expectSameBehaviour(fresh, filled);
  });
});
