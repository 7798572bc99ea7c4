import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('engine', () => {
  it('answers an unknown route with 404 and the error shape', async () => {
    const res = await server.request('/no/such/thing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 2, error: expect.any(String) });
  });

  it('guards the admin API with the master key', async () => {
    const res = await server.request('/__admin/state');
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 119 });
  });

  it('moves the clock forward', async () => {
    const before = Date.now();
    const res = await server.admin('/__admin/clock', {
      method: 'POST',
      body: JSON.stringify({ advanceSeconds: 3600 }),
    });
    const { now } = (await res.json()) as { now: string };
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(3600_000);
    const bad = await server.admin('/__admin/clock', { method: 'POST', body: JSON.stringify({ advanceSeconds: 'x' }) });
    expect(bad.status).toBe(400);
    // GET reads it without moving it: the time and the offset from real time.
    const read = (await (await server.admin('/__admin/clock')).json()) as { now: string; offsetSeconds: number };
    expect(read.offsetSeconds).toBeGreaterThanOrEqual(3600);
    expect(Date.parse(read.now) - Date.now()).toBeGreaterThanOrEqual(read.offsetSeconds * 1000 - 1000);
    expect(((await (await server.admin('/__admin/clock')).json()) as { offsetSeconds: number }).offsetSeconds).toBe(
      read.offsetSeconds,
    );
    expect((await server.request('/__admin/clock')).status).toBe(403);
  });

  it('refuses a config patch that breaks the schema, naming the key', async () => {
    const res = await server.admin('/__admin/config', {
      method: 'PATCH',
      body: JSON.stringify({ accessTokenTtlSeconds: -1 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('accessTokenTtlSeconds');
  });

  it('answers malformed JSON with 400 code 107', async () => {
    const res = await server.admin('/__admin/clock', { method: 'POST', body: '{nope' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 107 });
  });
});

describe('CORS', () => {
  it('answers a preflight for any origin with the requested headers', async () => {
    const res = await server.request('/object-storage/batch', {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://app.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,x-service-object-storage-id',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('x-service-object-storage-id');
  });

  it('exposes the download headers on simple responses', async () => {
    const res = await server.request('/no/such/thing', { headers: { Origin: 'http://app.test' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('Content-Disposition');
  });
});

describe('JSON bodies', () => {
  const clock = (body: string) => server.admin('/__admin/clock', { method: 'POST', body });

  it('refuses a body nested deeper than 512 levels with 400, however deep', async () => {
    for (const depth of [513, 5_000, 200_000]) {
      const res = await clock(`${'['.repeat(depth)}${']'.repeat(depth)}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 107, error: expect.stringContaining('nested deeper') });
    }
  });

  it('accepts nesting up to the limit', async () => {
    const nested = `${'{"a":'.repeat(510)}1${'}'.repeat(510)}`;
    const res = await clock(`{"advanceSeconds": 0, "x": ${nested}}`);
    expect(res.status).toBe(200);
  });

  it('refuses __proto__ keys at any depth with 400 code 105', async () => {
    const res = await clock('{"advanceSeconds": 0, "x": [{"y": {"__proto__": {"polluted": true}}}]}');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 105 });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
