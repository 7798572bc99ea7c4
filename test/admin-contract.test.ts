// The admin API against its contract (openapi/areas/admin.yaml): every /__admin route and /__health of the engine is
// described, every described operation is served, refuses a call without the key, and answers as described when the
// reference server runs it (success and documented errors, checked with the contract's own schemas).
import { readFileSync } from 'node:fs';
import { ErrorCode, type JobRecord } from '@basekit/engine';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes } from '../packages/engine/src/admin/routes.js';
import { snapshotRoutes } from '../packages/engine/src/admin/snapshots.js';
import { AREAS } from '../packages/engine/src/areas/index.js';
import { faultsRoutes } from '../packages/engine/src/faults/routes.js';
import { inspectorRoutes } from '../packages/engine/src/inspector/routes.js';
import { projectsAdminRoutes } from '../packages/engine/src/projects/admin-routes.js';
import type { ServerProjects } from '../packages/engine/src/projects/server-projects.js';
import type { AppEnv } from '../packages/engine/src/shared/env.js';
import { startTestServer, type TestServer } from '../mock-server/test/support/server.js';
import { authIdHeader, createUser, login, masterAuth, type TestUser } from '../mock-server/test/support/users.js';
import { loadContract, type Operation } from './fidelity/support/contract.js';

const contract = loadContract();
const operations = new Map(contract.adminOperations.map((op) => [op.id, op]));

/** `/__admin/projects/:id` and `/__admin/projects/{projectId}` both become `/__admin/projects/{}`. */
const normalize = (path: string) => path.replace(/:[^/]+|\{[^}]+\}/g, '{}');

/** Every admin route the engine serves, as `METHOD /path`: the route apps it mounts, middleware left out. */
function engineAdminRoutes(): string[] {
  // The projects API's routes close over the server's projects, which registering them does not touch.
  const apps: Hono<AppEnv>[] = [
    adminRoutes,
    inspectorRoutes,
    faultsRoutes,
    snapshotRoutes,
    projectsAdminRoutes({} as ServerProjects),
    ...AREAS.map((area) => area.routes),
  ];
  return apps
    .flatMap((app) => app.routes)
    .filter(({ method, path }) => method !== 'ALL' && (path.startsWith('/__admin') || path === '/__health'))
    .map(({ method, path }) => `${method} ${normalize(path)}`);
}

describe('the admin API in the contract', () => {
  it('describes every /__admin route and /__health of the engine, and no route the engine lacks', () => {
    const described = contract.adminOperations.map((op) => `${op.method.toUpperCase()} ${normalize(op.path)}`);
    expect([...new Set(engineAdminRoutes())].sort()).toEqual(described.sort());
  });

  it('tags every operation under /__admin and /__health `admin`, and nothing else', () => {
    const isAdminPath = (op: Operation) => op.path.startsWith('/__admin/') || op.path === '/__health';
    expect(contract.adminOperations.filter((op) => !isAdminPath(op)).map((op) => op.id)).toEqual([]);
    expect(contract.operations.filter(isAdminPath).map((op) => op.id)).toEqual([]);
  });
});

let server: TestServer;
let user: TestUser;
let inactive: { userId: string };
let master: Record<string, string>;
const violations: string[] = [];
/** The error codes the runs below were answered with. */
const answeredCodes = new Set<number>();

beforeAll(async () => {
  server = await startTestServer({ emailConfirmation: false });
  user = await createUser(server, 'ann');
  master = await masterAuth(server);
  const { config } = server;
  const db = { 'X-Service-Object-Storage-Id': config.objectStorageId, 'Content-Type': 'application/json' };
  const created = await server.request('/object-storage/classes/GameScore', {
    method: 'POST',
    headers: { ...db, ...user.auth },
    body: JSON.stringify({ score: 120, player: { __type: 'Pointer', className: 'Player', _id: 'p1' } }),
  });
  expect(created.status).toBe(201);
  await send('PATCH', '/__admin/transcoder/policy', { deliveryAttempts: 1, retryDelayMs: 0 });
  // A job that fails to fetch its source (nothing listens on port 9): its record lists the failed webhook call.
  const json = { ...master, 'Content-Type': 'application/json' };
  for (const [kind, setting] of [
    ['upload', { name: 'store', url: 'http://127.0.0.1:9/files' }],
    ['webhook', { name: 'status', default: true, url: 'http://127.0.0.1:9/status' }],
    ['thumbnail', { name: 'first', shots: ['00:00:01'] }],
  ] as const) {
    const saved = await server.request(`/metadata/${kind}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(setting),
    });
    expect(saved.status).toBe(201);
  }
  const convert = await server.request('/video/convert', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ url: 'http://127.0.0.1:9/clip.mp4', upload: 'store', webhook: true, thumbnail: 'first' }),
  });
  expect(convert.status, await convert.clone().text()).toBe(202);
  // An inactive user with a confirmation e-mail in the outbox.
  await send('PATCH', '/__admin/config', { emailConfirmation: true });
  const registered = await server.request('/auth/users', {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': config.authenticationId, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'bob', password: 'pw-bob', email: 'bob@example.com' }),
  });
  inactive = (await registered.json()) as { userId: string };
  await send('PATCH', '/__admin/config', { emailConfirmation: false });
});
afterAll(() => server?.close());

/** An admin call with the master key; JSON bodies as JSON. */
function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return server.admin(path, {
    method,
    headers: { ...(body !== undefined && { 'Content-Type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** Sends a call of `operationId` and checks its answer against the contract; returns the parsed JSON body. */
async function call(
  operationId: string,
  status: number,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<unknown> {
  const op = operations.get(operationId)!;
  const template = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}(\\?|$)`);
  expect(path, `a path of ${operationId}`).toMatch(template);
  const res = await send(op.method.toUpperCase(), path, options.body, options.headers);
  const type = res.headers.get('content-type');
  const text = await res.text();
  const json = type?.includes('json') ? JSON.parse(text) : text;
  expect(res.status, text).toBe(status);
  if (res.status >= 400) answeredCodes.add((json as { code: number }).code);
  const problem = contract.checkResponse(op, res.status, type, json);
  if (problem) violations.push(`${operationId} ${res.status}: ${problem}`);
  return json;
}

/** Reads the live stream until its first `request` event (after `trigger` ran) and returns its data. */
async function firstStreamedRequest(trigger: () => Promise<unknown>): Promise<unknown> {
  const res = await send('GET', '/__admin/requests/stream');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  await trigger();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before a request event: ${text}`);
      text += value;
      const event = text.split('\n\n').find((block) => block.includes('event: request'));
      const data = event?.split('\n').find((line) => line.startsWith('data: '));
      if (data) return JSON.parse(data.slice('data: '.length));
    }
  } finally {
    await reader.cancel();
  }
}

/**
 * Each operation run as a test author would, in this order, with its documented errors where the set-up allows:
 * every success and error answer is checked against the contract's schema for its status.
 */
const RUNS: [string, () => Promise<void>][] = [
  ['adminHealth', async () => void (await call('adminHealth', 200, '/__health'))],
  [
    'adminGetClock',
    async () => expect(await call('adminGetClock', 200, '/__admin/clock')).toMatchObject({ offsetSeconds: 0 }),
  ],
  [
    'adminAdvanceClock',
    async () => {
      await call('adminAdvanceClock', 200, '/__admin/clock', { body: { advanceSeconds: 60 } });
      await call('adminAdvanceClock', 400, '/__admin/clock', { body: { advanceSeconds: -1 } });
      await call('adminAdvanceClock', 400, '/__admin/clock', { body: 'not json' });
      await call('adminAdvanceClock', 413, '/__admin/clock', {
        body: { advanceSeconds: 1, pad: 'x'.repeat(server.engine.project.config.maxJsonBodyBytes) },
      });
    },
  ],
  [
    'adminGetOutbox',
    async () => {
      const { messages } = (await call('adminGetOutbox', 200, '/__admin/outbox')) as { messages: { link?: string }[] };
      expect(messages[0]?.link).toContain('/auth/confirm/');
    },
  ],
  ['adminExportState', async () => void (await call('adminExportState', 200, '/__admin/state'))],
  [
    'adminImportState',
    async () => {
      const state = await call('adminExportState', 200, '/__admin/state');
      await call('adminImportState', 200, '/__admin/state', { body: state });
      await call('adminImportState', 400, '/__admin/state', { body: { areas: [] } });
    },
  ],
  ['adminGetConfig', async () => void (await call('adminGetConfig', 200, '/__admin/config'))],
  [
    'adminUpdateConfig',
    async () => {
      await call('adminUpdateConfig', 200, '/__admin/config', { body: { accessTokenTtlSeconds: 7199 } });
      await call('adminUpdateConfig', 400, '/__admin/config', { body: { accessTokenTtlSeconds: 0 } });
    },
  ],
  [
    'adminActivateUser',
    async () => {
      const record = await call('adminActivateUser', 200, `/__admin/users/${inactive.userId}/activate`);
      expect(record).toMatchObject({ userId: inactive.userId, active: true });
      await call('adminActivateUser', 404, '/__admin/users/nobody/activate');
    },
  ],
  [
    'adminSignOutUser',
    async () => {
      expect(await call('adminSignOutUser', 200, `/__admin/users/${user.userId}/sign-out`)).toEqual({
        expiredRefreshTokens: 1,
      });
      await call('adminSignOutUser', 404, '/__admin/users/nobody/sign-out');
    },
  ],
  [
    'adminFindUsers',
    async () => {
      const garcia = await createUser(server, 'jgarcia', { firstName: 'José', lastName: 'García' });
      const find = async (query: string) =>
        ((await call('adminFindUsers', 200, `/__admin/users?${query}`)) as { users: { userId: string }[] }).users.map(
          (u) => u.userId,
        );
      expect(await find('q=GARCIA&active=true')).toEqual([garcia.userId]);
      expect(await find('q=jose&guest=false')).toEqual([garcia.userId]);
      expect(await find(`q=${garcia.userId}`)).toEqual([garcia.userId]);
      const registered = await server.request('/auth/guest-users', { method: 'POST', headers: authIdHeader(server) });
      const guest = (await registered.json()) as { id: string };
      expect(await find('guest=true&active=true')).toEqual([guest.id]);
      expect(await find('active=false')).toEqual([]);
      await call('adminFindUsers', 400, '/__admin/users?active=yes');
    },
  ],
  [
    'adminSetUserPassword',
    async () => {
      const record = await call('adminSetUserPassword', 200, `/__admin/users/${user.userId}/password`, {
        body: { password: 'n3w-s3cret' },
      });
      expect(record).toMatchObject({ userId: user.userId, username: 'ann' });
      const client = { 'X-Service-Authentication-Key': server.config.clientKey };
      await expect(login(server, { username: 'ann', password: 'n3w-s3cret' }, client)).resolves.toMatchObject({
        scope: 'client',
      });
      await expect(login(server, { username: 'ann', password: user.password }, client)).rejects.toThrow(/401/);
      await call('adminSetUserPassword', 400, `/__admin/users/${user.userId}/password`, { body: { password: '' } });
      await call('adminSetUserPassword', 404, '/__admin/users/nobody/password', { body: { password: 'x' } });
    },
  ],
  [
    'adminListTables',
    async () => {
      const { tables } = (await call('adminListTables', 200, '/__admin/database/tables')) as {
        tables: { name: string }[];
      };
      expect(tables.map((t) => t.name)).toEqual(['GameScore']);
    },
  ],
  [
    'adminListFiles',
    async () => {
      const { bucket } = server.engine.project.config;
      const form = new FormData();
      form.set('fileItems[0].fileToUpload', new Blob(['<svg/>']), 'Café Logo.svg');
      form.set('fileItems[0].path', 'brand/2025');
      form.set('fileItems[0].replacing', 'false');
      const storage = { 'X-Service-Storage-Id': server.config.storageId, ...user.auth };
      expect((await server.request('/files', { method: 'POST', headers: storage, body: form })).status).toBe(200);
      const root = (await call('adminListFiles', 200, '/__admin/files')) as { entries: { url: string }[] };
      expect(root.entries.map((e) => e.url)).toEqual([`/${bucket}/brand`]);
      const found = await call('adminListFiles', 200, '/__admin/files?name=cafe%20logo');
      expect(found).toMatchObject({
        total: 1,
        entries: [{ url: `/${bucket}/brand/2025/Caf%C3%A9%20Logo.svg`, contentType: 'image/svg+xml' }],
      });
      // A file's own path answers the file, and nothing below it: no error for guessing wrong.
      const file = await call('adminListFiles', 200, '/__admin/files?path=brand/2025/Caf%C3%A9%20Logo.svg');
      expect(file).toMatchObject({ entry: { isDirectory: false, ownerId: user.userId }, entries: [], total: 0 });
      await call('adminListFiles', 404, '/__admin/files?path=brand/2024');
      await call('adminListFiles', 400, '/__admin/files?path=brand/..');
    },
  ],
  [
    'adminGetTable',
    async () => {
      expect(await call('adminGetTable', 200, '/__admin/database/tables/GameScore')).toMatchObject({
        rowCount: 1,
        columns: [
          { name: 'score', rowsWithValue: 1 },
          { name: 'player', targetClass: 'Player', rowsWithValue: 1 },
        ],
      });
      await call('adminGetTable', 404, '/__admin/database/tables/Nothing');
      await call('adminGetTable', 400, '/__admin/database/tables/bad-name');
    },
  ],
  [
    'adminImportRows',
    async () => {
      const path = '/__admin/database/tables/Imported/import';
      const columns = [{ name: 'likes', type: 'Relation', targetClass: 'GameScore' }];
      expect(await call('adminImportRows', 200, path, { body: { columns, rows: [{ n: 1 }, { n: 2 }] } })).toEqual({
        imported: 2,
      });
      await call('adminImportRows', 400, path, { body: { rows: [{ n: 3 }, { n: 'three' }] } });
      await call('adminImportRows', 400, path, { body: { rows: 'none' } });
    },
  ],
  [
    'adminRenameColumn',
    async () => {
      const path = '/__admin/database/tables/Imported/columns/n';
      await call('adminRenameColumn', 200, path, { body: { name: 'm' } });
      await call('adminRenameColumn', 409, '/__admin/database/tables/Imported/columns/m', { body: { name: 'likes' } });
      await call('adminRenameColumn', 400, '/__admin/database/tables/Imported/columns/m', { body: { name: '1st' } });
      await call('adminRenameColumn', 404, path, { body: { name: 'k' } });
    },
  ],
  [
    'adminDropColumn',
    async () => {
      await call('adminDropColumn', 200, '/__admin/database/tables/Imported/columns/m');
      await call('adminDropColumn', 404, '/__admin/database/tables/Imported/columns/m');
      await call('adminDropColumn', 400, '/__admin/database/tables/Imported/columns/ACL');
    },
  ],
  [
    'adminDeleteTable',
    async () => {
      expect(await call('adminDeleteTable', 200, '/__admin/database/tables/Imported')).toEqual({ deletedCount: 2 });
      await call('adminDeleteTable', 404, '/__admin/database/tables/Imported');
      await call('adminDeleteTable', 400, '/__admin/database/tables/bad-name');
    },
  ],
  [
    'adminListJobs',
    async () => {
      const jobs = async () => ((await call('adminListJobs', 200, '/__admin/jobs')) as { jobs: JobRecord[] }).jobs;
      // Listed while it runs, and once it has failed (its webhook call listed with the try that failed).
      await jobs();
      await expect.poll(async () => (await jobs())[0]!.state).toBe('rejected');
      expect((await jobs())[0]!.calls).toMatchObject([{ kind: 'webhook', delivered: false }]);
    },
  ],
  [
    'adminListTranscoderSettings',
    async () => void (await call('adminListTranscoderSettings', 200, '/__admin/transcoder/settings')),
  ],
  [
    'adminGetTranscoderPolicy',
    async () => void (await call('adminGetTranscoderPolicy', 200, '/__admin/transcoder/policy')),
  ],
  [
    'adminUpdateTranscoderPolicy',
    async () => {
      await call('adminUpdateTranscoderPolicy', 200, '/__admin/transcoder/policy', { body: { concurrency: 2 } });
      await call('adminUpdateTranscoderPolicy', 400, '/__admin/transcoder/policy', { body: { concurrency: 0 } });
    },
  ],
  [
    'adminResetLeaderboard',
    async () => {
      await call('adminResetLeaderboard', 200, '/__admin/leaderboards/high-score/reset');
      await call('adminResetLeaderboard', 404, '/__admin/leaderboards/nope/reset');
    },
  ],
  [
    'adminListRequests',
    async () => {
      const page = (await call('adminListRequests', 200, '/__admin/requests?limit=2')) as { next: string };
      await call('adminListRequests', 200, `/__admin/requests?area=database&status=2xx&user=${user.userId}`);
      await call('adminListRequests', 200, `/__admin/requests?before=${page.next}&text=GameScore`);
      await call('adminListRequests', 400, '/__admin/requests?status=600');
    },
  ],
  [
    'adminGetRequest',
    async () => {
      const { requests } = (await call('adminListRequests', 200, '/__admin/requests?limit=1000')) as {
        requests: { id: string }[];
      };
      // Every kind of exchange this run made: bodies of JSON, forms, none; callers of every kind.
      for (const { id } of requests) await call('adminGetRequest', 200, `/__admin/requests/${id}`);
      await call('adminGetRequest', 404, '/__admin/requests/0-0');
    },
  ],
  [
    'adminStreamRequests',
    async () => {
      const summary = await firstStreamedRequest(() => send('GET', '/__admin/clock'));
      expect(contract.checkSchema('AdminRequestSummary', summary)).toBeUndefined();
      expect(summary).toMatchObject({ method: 'GET', path: '/__admin/clock', area: 'admin' });
    },
  ],
  [
    'adminExportRequests',
    async () => {
      const { log } = (await call('adminExportRequests', 200, '/__admin/requests/har?area=users&limit=3')) as {
        log: { entries: { _area: string; startedDateTime: string }[] };
      };
      expect(log.entries).toHaveLength(3);
      expect(log.entries.every((entry) => entry._area === 'users')).toBe(true);
      const times = log.entries.map((entry) => entry.startedDateTime);
      expect([...times].sort()).toEqual(times);
      await call('adminExportRequests', 400, '/__admin/requests/har?status=600');
    },
  ],
  [
    'adminReplayRequest',
    async () => {
      const { requests } = (await call('adminListRequests', 200, `/__admin/requests?user=ann&area=database`)) as {
        requests: { id: string; method: string }[];
      };
      const created = requests.find((r) => r.method === 'POST')!;
      const again = (await call('adminReplayRequest', 200, `/__admin/requests/${created.id}/replay`)) as {
        id: string;
        status: number;
        caller: unknown;
      };
      expect(again).toMatchObject({ status: 201, caller: { kind: 'user', userId: user.userId, username: 'ann' } });
      const replayed = (await call('adminGetRequest', 200, `/__admin/requests/${again.id}`)) as {
        request: { headers: Record<string, string> };
      };
      expect(replayed.request.headers['x-replay-of']).toBe(created.id);
      const { requests: uploads } = (await call('adminListRequests', 200, '/__admin/requests?text=POST%20/files')) as {
        requests: { id: string }[];
      };
      await call('adminReplayRequest', 409, `/__admin/requests/${uploads[0]!.id}/replay`);
      await call('adminReplayRequest', 404, '/__admin/requests/0-0/replay');
    },
  ],
  ['adminClearRequests', async () => void (await call('adminClearRequests', 200, '/__admin/requests'))],
  [
    'adminCreateProject',
    async () => {
      await call('adminCreateProject', 201, '/__admin/projects', { body: { authenticationId: 'worker-1' } });
      await call('adminCreateProject', 409, '/__admin/projects', { body: { authenticationId: 'worker-1' } });
      await call('adminCreateProject', 400, '/__admin/projects', { body: { maxProjects: 2 } });
    },
  ],
  ['adminListProjects', async () => void (await call('adminListProjects', 200, '/__admin/projects'))],
  [
    'adminGetProject',
    async () => {
      await call('adminGetProject', 200, '/__admin/projects/worker-1');
      await call('adminGetProject', 404, '/__admin/projects/nope');
    },
  ],
  [
    'adminUpdateProject',
    async () => {
      await call('adminUpdateProject', 200, '/__admin/projects/worker-1', { body: { inspectorLimit: 0 } });
      await call('adminUpdateProject', 400, '/__admin/projects/worker-1', { body: { dataDir: '/tmp' } });
      await call('adminUpdateProject', 409, '/__admin/projects/worker-1', {
        body: { objectStorageId: server.config.objectStorageId },
      });
    },
  ],
  [
    'adminExportProjectState',
    async () => void (await call('adminExportProjectState', 200, '/__admin/projects/worker-1/state')),
  ],
  [
    'adminImportProjectState',
    async () => {
      const state = await call('adminExportProjectState', 200, '/__admin/projects/worker-1/state');
      await call('adminImportProjectState', 200, '/__admin/projects/worker-1/state', { body: state });
      await call('adminImportProjectState', 404, '/__admin/projects/nope/state', { body: state });
    },
  ],
  ['adminResetProject', async () => void (await call('adminResetProject', 200, '/__admin/projects/worker-1/reset'))],
  [
    'adminDeleteProject',
    async () => {
      await call('adminDeleteProject', 204, '/__admin/projects/worker-1');
      await call('adminDeleteProject', 409, `/__admin/projects/${server.config.authenticationId}`);
      await call('adminDeleteProject', 404, '/__admin/projects/worker-1');
    },
  ],
  [
    'adminSetFault',
    async () => {
      await call('adminSetFault', 201, '/__admin/faults', {
        body: { method: 'get', path: '/auth/users/{userId}', status: 503, times: 1 },
      });
      await call('adminSetFault', 201, '/__admin/faults', {
        body: { path: '/files', network: 'reset', delayMs: 10, probability: 0.5 },
      });
      await call('adminSetFault', 400, '/__admin/faults', { body: { path: '/auth/login', status: 200 } });
      await send('PATCH', '/__admin/config', { maxFaults: 2 });
      await call('adminSetFault', 400, '/__admin/faults', { body: { path: '/auth/login', status: 500 } });
      await send('PATCH', '/__admin/config', { maxFaults: 100 });
      // An injected answer, as the inspector lists it.
      const res = await server.request(`/auth/users/${user.userId}`, {
        headers: { 'X-Service-Authentication-Id': server.config.authenticationId, ...user.auth },
      });
      expect(res.status).toBe(503);
      const page = (await call(
        'adminListRequests',
        200,
        '/__admin/requests?method=GET&path=/auth/users/{userId}&count=1',
      )) as {
        requests: { injected?: unknown }[];
        count: number;
      };
      expect(page.count).toBeGreaterThan(0);
      expect(page.requests[0]!.injected).toMatchObject({ kind: 'status' });
    },
  ],
  ['adminListFaults', async () => void (await call('adminListFaults', 200, '/__admin/faults'))],
  [
    'adminRemoveFault',
    async () => {
      const { faults } = (await call('adminListFaults', 200, '/__admin/faults')) as { faults: { id: string }[] };
      await call('adminRemoveFault', 204, `/__admin/faults/${faults[0]!.id}`);
      await call('adminRemoveFault', 404, `/__admin/faults/${faults[0]!.id}`);
    },
  ],
  ['adminClearFaults', async () => void (await call('adminClearFaults', 204, '/__admin/faults'))],
  [
    'adminSaveSnapshot',
    async () => {
      await call('adminSaveSnapshot', 201, '/__admin/snapshots/seeded');
      await call('adminSaveSnapshot', 400, '/__admin/snapshots/-bad');
      await send('PATCH', '/__admin/config', { maxSnapshots: 1 });
      await call('adminSaveSnapshot', 400, '/__admin/snapshots/another');
      await send('PATCH', '/__admin/config', { maxSnapshots: 20 });
    },
  ],
  ['adminListSnapshots', async () => void (await call('adminListSnapshots', 200, '/__admin/snapshots'))],
  [
    'adminRestoreSnapshot',
    async () => {
      await call('adminRestoreSnapshot', 200, '/__admin/snapshots/seeded/restore');
      await call('adminRestoreSnapshot', 404, '/__admin/snapshots/nope/restore');
    },
  ],
  [
    'adminDeleteSnapshot',
    async () => {
      await call('adminDeleteSnapshot', 204, '/__admin/snapshots/seeded');
      await call('adminDeleteSnapshot', 404, '/__admin/snapshots/seeded');
    },
  ],
  [
    'adminReset',
    async () => {
      await call('adminReset', 200, '/__admin/reset');
      // With recording off, the inspector says so.
      await send('PATCH', '/__admin/config', { inspectorLimit: 0 });
      await call('adminListRequests', 409, '/__admin/requests');
      await call('adminGetRequest', 409, '/__admin/requests/0-0');
      await call('adminExportRequests', 409, '/__admin/requests/har');
      await call('adminReplayRequest', 409, '/__admin/requests/0-0/replay');
      await call('adminStreamRequests', 409, '/__admin/requests/stream');
    },
  ],
];

describe('the admin API on the reference server', () => {
  it('runs every operation of the contract here', () => {
    expect(RUNS.map(([id]) => id).sort()).toEqual([...operations.keys()].sort());
  });

  it.each(RUNS)('%s answers as the contract describes', async (_id, run) => {
    violations.length = 0;
    await run();
    expect(violations).toEqual([]);
  });

  it("lists every error code it answered, and every one its contract shows, in docs/errors.md's admin table", () => {
    const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('## The admin API'));
    const documented = [...table.matchAll(/^\| (\d+) +\| (\d{3}) [A-Z]/gm)].map(([, code]) => Number(code));
    const shown = contract.adminOperations.flatMap((op) =>
      Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([, response]) => (response.content!['application/json']!.example as { code: number }).code),
    );
    expect(answeredCodes.size).toBeGreaterThan(10);
    expect([...new Set([...answeredCodes, ...shown])].filter((code) => !documented.includes(code))).toEqual([]);
    const catalogue: number[] = Object.values(ErrorCode);
    expect(documented.filter((code) => !catalogue.includes(code))).toEqual([]);
  });

  it.each([...operations.values()].filter((op) => op.security.length > 0 && op.security[0]!.length > 0))(
    '$id refuses a call without the master key (403, code 119)',
    async (op) => {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      for (const headers of [
        {} as Record<string, string>,
        { 'X-Service-Authentication-Key': server.config.clientKey },
      ]) {
        const res = await server.request(path, { method: op.method.toUpperCase(), headers });
        const body = (await res.json()) as { code: number };
        expect([res.status, body.code]).toEqual([403, 119]);
        expect(contract.checkResponse(op, res.status, res.headers.get('content-type'), body)).toBeUndefined();
      }
    },
  );
});
