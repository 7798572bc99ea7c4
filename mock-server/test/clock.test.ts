// The clock takes only advances that keep every date valid: at most 100 years ahead of real time, 400
// past it, whether the offset comes from POST /__admin/clock or from an imported state; a refused advance changes
// nothing, before or after a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startServer } from '../src/server.js';
import { startTestServer, type TestServer } from './support/server.js';
import { masterAuth } from './support/users.js';

const BOUND_SECONDS = 100 * 365.25 * 86_400;
/** The service's timestamp form, four-digit year. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const advance = (advanceSeconds: unknown) =>
  server.admin('/__admin/clock', { method: 'POST', body: JSON.stringify({ advanceSeconds }) });
const clock = async () =>
  (await (await server.admin('/__admin/clock')).json()) as { now: string; offsetSeconds: number };

/** The project still works: its clock reads a date, a master login gives a token that is accepted. */
async function expectWorking(target: Pick<TestServer, 'request' | 'config'>): Promise<void> {
  const master = await masterAuth(target as TestServer);
  const res = await target.request('/auth/users?page=1&pageSize=1', {
    headers: { 'X-Service-Authentication-Id': target.config.authenticationId, ...master },
  });
  expect(res.status).toBe(200);
}

describe('POST /__admin/clock', () => {
  it('refuses advances past 100 years ahead with 400, changing nothing (8.64e12 and 1e300 answered 500 and broke the project)', async () => {
    await expect((await advance(3600)).status).toBe(200);
    for (const seconds of [8.64e12, 1e300, BOUND_SECONDS]) {
      const res = await advance(seconds);
      expect(res.status, String(seconds)).toBe(400);
      expect(await res.json()).toEqual({
        code: ErrorCode.CLOCK_OUT_OF_RANGE,
        error: expect.stringContaining('100 years'),
      });
    }
    expect((await clock()).offsetSeconds).toBe(3600);
    await expectWorking(server);
  });

  it('takes the clock up to the bound, where every date it gives keeps its four-digit year', async () => {
    expect((await advance(BOUND_SECONDS)).status).toBe(200);
    const { now, offsetSeconds } = await clock();
    expect(offsetSeconds).toBe(BOUND_SECONDS);
    expect(now).toMatch(TIMESTAMP);
    expect((await advance(0)).status).toBe(200);
    expect((await advance(0.001)).status).toBe(400);
    const row = await server.request('/object-storage/classes/Dates', {
      method: 'POST',
      headers: {
        'X-Service-Object-Storage-Id': server.config.objectStorageId,
        ...(await masterAuth(server)),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ n: 1 }),
    });
    expect(row.status).toBe(201);
    expect(((await row.json()) as { createdAt: string }).createdAt).toMatch(TIMESTAMP);
  });

  it('still refuses negative, infinite and non-numeric advances', async () => {
    for (const seconds of [-1, '5', null]) expect((await advance(seconds)).status, String(seconds)).toBe(400);
    const res = await server.admin('/__admin/clock', { method: 'POST', body: '{"advanceSeconds": 1e400}' });
    expect(res.status).toBe(400);
    expect((await clock()).offsetSeconds).toBe(0);
  });
});

describe('PUT /__admin/state', () => {
  it('refuses a clock offset past the bound, negative or not a number, importing nothing', async () => {
    expect((await advance(60)).status).toBe(200);
    const exported = (await (await server.admin('/__admin/state')).json()) as Record<string, unknown>;
    for (const clockOffsetMs of [8.64e15, 1e303, BOUND_SECONDS * 1000 + 1, -1, '5']) {
      const res = await server.admin('/__admin/state', {
        method: 'PUT',
        body: JSON.stringify({ ...exported, clockOffsetMs }),
      });
      expect(res.status, String(clockOffsetMs)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain('clockOffsetMs');
    }
    expect((await clock()).offsetSeconds).toBe(60);
    await expectWorking(server);
  });
});

describe('with a data folder', () => {
  it('keeps a refused advance out across a restart (the offset used to be kept and break every start)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'clock-bound-'));
    try {
      const first = await startServer({ port: 0, dataDir });
      const admin = (path: string, init: RequestInit = {}) =>
        fetch(`${first.url}${path}`, { ...init, headers: { 'X-Service-Authentication-Key': 'dev-master-key' } });
      expect((await admin('/__admin/clock', { method: 'POST', body: '{"advanceSeconds": 8.64e12}' })).status).toBe(400);
      await first.close();
      const second = await startServer({ port: 0, dataDir });
      try {
        const read = await fetch(`${second.url}/__admin/clock`, {
          headers: { 'X-Service-Authentication-Key': 'dev-master-key' },
        });
        expect(read.status).toBe(200);
        expect(((await read.json()) as { offsetSeconds: number }).offsetSeconds).toBe(0);
        await expectWorking({
          config: second.engine.project.config,
          request: (path, init) => fetch(`${second.url}${path}`, init),
        });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
