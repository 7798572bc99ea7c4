// Faults and latency over real HTTP: injected statuses, dropped connections and delays, per project.
import { DEFAULT_CONFIG, ErrorCode, type ExchangeSummary, type FaultView } from '@basekit/engine';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { createProject } from '../../../packages/engine/test/projects/support.js';
import type { TestServer as EngineTestServer } from '../../../packages/engine/test/support/server.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, type TestUser } from '../support/users.js';

let server: TestServer;
let ann: TestUser;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  ann = await createUser(server, 'ann');
});

const json = { 'Content-Type': 'application/json' };

async function setFault(target: EngineTestServer, body: unknown): Promise<FaultView> {
  const res = await target.admin('/__admin/faults', { method: 'POST', headers: json, body: JSON.stringify(body) });
  const answer = (await res.json()) as FaultView;
  expect(res.status, JSON.stringify(answer)).toBe(201);
  return answer;
}

async function faults(target: EngineTestServer = server): Promise<FaultView[]> {
  const res = await target.admin('/__admin/faults');
  expect(res.status).toBe(200);
  return ((await res.json()) as { faults: FaultView[] }).faults;
}

const db = (user: TestUser) => ({
  'X-Service-Object-Storage-Id': server.config.objectStorageId,
  ...user.auth,
  ...json,
});

const createRow = (user: TestUser, table = 'Score', body: unknown = { score: 1 }) =>
  server.request(`/object-storage/classes/${table}`, { method: 'POST', headers: db(user), body: JSON.stringify(body) });

async function rowCount(table = 'Score'): Promise<number> {
  const res = await server.request(`/object-storage/classes/query/${table}?count=1&limit=0`, {
    method: 'POST',
    headers: db(ann),
    body: '{}',
  });
  return res.status === 404 ? 0 : ((await res.json()) as { count: number }).count;
}

const masterLogin = () =>
  server.request('/auth/login', {
    method: 'POST',
    headers: { ...authIdHeader(server), 'X-Service-Authentication-Key': server.config.masterKey },
  });

describe('an injected status', () => {
  it('answers in place of the operation, with the code and words of the spec for that status, as many times as asked', async () => {
    const fault = await setFault(server, { method: 'post', path: '/auth/login', status: 503, times: 2 });
    expect(fault).toMatchObject({
      id: expect.any(String),
      method: 'POST',
      path: '/auth/login',
      status: 503,
      times: 2,
      remaining: 2,
      applied: 0,
      matched: 0,
    });
    for (let i = 0; i < 2; i++) {
      const res = await masterLogin();
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ code: 3, error: 'the service is disabled' });
    }
    expect((await masterLogin()).status).toBe(200);
    expect(await faults()).toMatchObject([{ id: fault.id, remaining: 0, applied: 2, matched: 2 }]);
  });

  it('takes the code and message given, and defaults that fit the operation (401 on login is wrong credentials)', async () => {
    await setFault(server, { path: '/auth/login', status: 401, times: 1 });
    expect(await (await masterLogin()).json()).toEqual({ code: 212, error: 'username or password incorrect' });
    await setFault(server, { path: '/auth/users/me', status: 429, code: 4290, error: 'slow down', times: 1 });
    const res = await server.request('/auth/users/me', { headers: { ...authIdHeader(server), ...ann.auth } });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ code: 4290, error: 'slow down' });
    await setFault(server, { path: '/auth/users/me', status: 418 });
    const teapot = await server.request('/auth/users/me', { headers: { ...authIdHeader(server), ...ann.auth } });
    expect(await teapot.json()).toEqual({ code: 40, error: 'an injected fault answered 418' });
  });

  it('changes nothing: the request never reaches the operation', async () => {
    await setFault(server, { method: 'POST', path: '/object-storage/classes/{tableName}', status: 500 });
    const before = await (await server.admin('/__admin/state')).text();
    const res = await createRow(ann);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ code: 1, error: 'server failed' });
    expect(await (await server.admin('/__admin/state')).text()).toBe(before);
  });

  it('matches a pattern as the contract writes paths, and the method, and nothing else', async () => {
    const created = (await (await createRow(ann)).json()) as { _id: string };
    await setFault(server, { method: 'GET', path: '/object-storage/classes/{tableName}/{objectId}', status: 404 });
    const get = await server.request(`/object-storage/classes/Score/${created._id}`, { headers: db(ann) });
    expect(get.status).toBe(404);
    expect(await get.json()).toEqual({ code: 101, error: 'a required resource such as the table does not exist' });
    // Another method, another shape of path: untouched.
    expect(
      (
        await server.request(`/object-storage/classes/Score/${created._id}`, {
          method: 'PUT',
          headers: db(ann),
          body: '{"score":2}',
        })
      ).status,
    ).toBe(200);
    expect((await createRow(ann)).status).toBe(201);
    // A trailing slash, as the service's published clients send, is the same path.
    expect((await server.request(`/object-storage/classes/Score/${created._id}/`, { headers: db(ann) })).status).toBe(
      404,
    );
  });

  it('is shown as injected by the request inspector, and carries CORS headers for a browser', async () => {
    await server.admin('/__admin/requests', { method: 'DELETE' });
    const fault = await setFault(server, { path: '/auth/users/me', status: 502 });
    const res = await server.request('/auth/users/me', {
      headers: { ...authIdHeader(server), ...ann.auth, Origin: 'http://app.test' },
    });
    expect(res.status).toBe(502);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const { requests } = (await (await server.admin('/__admin/requests')).json()) as { requests: ExchangeSummary[] };
    const faulted = requests.find((r) => r.path === '/auth/users/me')!;
    expect(faulted).toMatchObject({ status: 502, injected: { faultId: fault.id, kind: 'status' } });
  });

  it('leaves to the network guard what it refuses: the built-in master key from a page of another site', async () => {
    await setFault(server, { method: 'POST', path: '/auth/login', status: 503 });
    const res = await server.request('/auth/login', {
      method: 'POST',
      headers: {
        ...authIdHeader(server),
        'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey,
        Origin: 'https://evil.example',
      },
    });
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: ErrorCode.BUILT_IN_KEY_REFUSED });
  });
});

describe('a dropped connection', () => {
  it('gets no answer at all, and changes nothing', async () => {
    await setFault(server, { method: 'POST', path: '/object-storage/classes/{tableName}', network: 'reset', times: 1 });
    await expect(createRow(ann)).rejects.toThrow(TypeError);
    expect(await rowCount()).toBe(0);
    expect((await createRow(ann)).status).toBe(201);
    const { requests } = (await (await server.admin('/__admin/requests?area=database')).json()) as {
      requests: ExchangeSummary[];
    };
    expect(requests.find((r) => r.injected)).toMatchObject({ status: 0, injected: { kind: 'reset' } });
  });
});

describe('a delay', () => {
  it('delays the real answer by delayMs', async () => {
    await setFault(server, { path: '/auth/users/me', delayMs: 400 });
    const started = performance.now();
    const res = await server.request('/auth/users/me', { headers: { ...authIdHeader(server), ...ann.auth } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { username: string }).username).toBe('ann');
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('holds up no other request, even with a journal that takes changes one at a time', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'basekit-faults-'));
    const durable = await startServer({ port: 0, dataDir });
    try {
      const admin = { 'X-Service-Authentication-Key': 'dev-master-key', ...json };
      const set = await fetch(`${durable.url}/__admin/faults`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ path: '/auth/users', method: 'POST', delayMs: 1500, times: 1 }),
      });
      expect(set.status).toBe(201);
      const register = (username: string) =>
        fetch(`${durable.url}/auth/users`, {
          method: 'POST',
          headers: { 'X-Service-Authentication-Id': 'dev-auth-id', ...json },
          body: JSON.stringify({ username, password: 'pw' }),
        });
      const slow = register('slow');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      expect((await register('quick')).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(1000);
      expect((await slow).status).toBe(200);
      // Never journaled: a restart of the same data folder starts with no fault (and both users).
      await durable.close();
      const again = await startServer({ port: 0, dataDir });
      const listed = await fetch(`${again.url}/__admin/faults`, { headers: admin });
      expect(await listed.json()).toEqual({ faults: [] });
      const users = await fetch(`${again.url}/__admin/state`, { headers: admin });
      expect(JSON.stringify(await users.json())).toContain('"quick"');
      await again.close();
    } finally {
      await durable.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('probability', () => {
  it('applies to about that share of the requests, the same ones again for the same seed', async () => {
    const run = async (seed: number) => {
      const fault = await setFault(server, { path: '/auth/users/me', status: 503, probability: 0.5, seed });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++)
        statuses.push(
          (await server.request('/auth/users/me', { headers: { ...authIdHeader(server), ...ann.auth } })).status,
        );
      const [listed] = await faults();
      await server.admin(`/__admin/faults/${fault.id}`, { method: 'DELETE' });
      expect(listed).toMatchObject({ seed, matched: 40, applied: statuses.filter((s) => s === 503).length });
      return statuses;
    };
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    const applied = first.filter((s) => s === 503).length;
    expect(applied).toBeGreaterThan(8);
    expect(applied).toBeLessThan(32);
    expect(await run(7)).not.toEqual(first);
  });

  it('draws a seed from the engine when none is given, and shows it', async () => {
    const fault = await setFault(server, { path: '/auth/users/me', status: 503, probability: 0.1 });
    expect(fault['seed']).toEqual(expect.any(Number));
  });
});

describe('managing faults', () => {
  it('removes one, all, and all on reset; an unknown id is 404 with its own code', async () => {
    const a = await setFault(server, { path: '/auth/users/me', status: 500 });
    await setFault(server, { path: '/auth/login', status: 500 });
    expect((await server.admin(`/__admin/faults/${a.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await faults()).map((f) => f.path)).toEqual(['/auth/login']);
    const missing = await server.admin(`/__admin/faults/${a.id}`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: number }).code).toBe(41);
    expect((await server.admin('/__admin/faults', { method: 'DELETE' })).status).toBe(204);
    expect(await faults()).toEqual([]);
    await setFault(server, { path: '/auth/login', status: 500 });
    await server.reset();
    expect(await faults()).toEqual([]);
    expect((await masterLogin()).status).toBe(200);
  });

  it.each([
    [{}, '"path" is required'],
    [{ path: 'auth/login', status: 500 }, 'must start with "/"'],
    [{ path: '/auth/{x', status: 500 }, 'a parameter is a whole segment'],
    [{ path: '/__admin/reset', status: 500 }, 'cannot be faulted'],
    [{ path: '/auth/login' }, 'a fault needs'],
    [{ path: '/auth/login', status: 200 }, '"status" must be a whole number from 400 to 599'],
    [{ path: '/auth/login', status: 500, network: 'reset' }, 'exclude each other'],
    [{ path: '/auth/login', network: 'close' }, '"network" must be "reset"'],
    [{ path: '/auth/login', code: 3 }, 'give the status too'],
    [{ path: '/auth/login', delayMs: 10_000_000 }, 'maxFaultDelayMs'],
    [{ path: '/auth/login', status: 500, probability: 2 }, '"probability"'],
    [{ path: '/auth/login', status: 500, times: 0 }, '"times"'],
    [{ path: '/auth/login', status: 500, method: 'BREW' }, '"method"'],
    [{ path: '/auth/login', status: 500, seed: 1 }, 'give it too'],
    [{ path: '/auth/login', status: 500, colour: 'red' }, 'unknown key "colour"'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await server.admin('/__admin/faults', { method: 'POST', headers: json, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { code: number; error: string };
    expect(answer.code).toBe(142);
    expect(answer.error).toContain(message);
    expect(await faults()).toEqual([]);
  });

  it('holds at most maxFaults (400, code 42) and needs the master key', async () => {
    await server.patchConfig({ maxFaults: 1 });
    await setFault(server, { path: '/auth/login', status: 500 });
    const res = await server.admin('/__admin/faults', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ path: '/auth/users', status: 500 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(42);
    expect((await server.request('/__admin/faults')).status).toBe(403);
  });

  it('belongs to one project: another project of the server is untouched', async () => {
    const other = await createProject(server);
    await setFault(other, { path: '/auth/login', status: 503 });
    expect((await masterLogin()).status).toBe(200);
    const res = await other.request('/auth/login', {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': other.config.authenticationId,
        'X-Service-Authentication-Key': other.config.masterKey,
      },
    });
    expect(res.status).toBe(503);
    expect(await faults()).toEqual([]);
    expect(await faults(other)).toHaveLength(1);
  });
});
