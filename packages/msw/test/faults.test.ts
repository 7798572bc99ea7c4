// Faults inside msw: the same engine code as the server, set through the backend's controls.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../src/index.js';
import { BASE, authenticationId, json, login, masterKey, objectStorageId, signUp } from './support.js';

const backend = createHandlers({ baseUrl: BASE, config: { inspectorLimit: 50 } });
const server = setupServer(...backend);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => backend.reset());

const createRow = (auth: Record<string, string>) =>
  fetch(
    `${BASE}/object-storage/classes/Note`,
    json('POST', { title: 'x' }, { 'X-Service-Object-Storage-Id': objectStorageId, ...auth }),
  );

describe('faults in msw', () => {
  it('answers an injected status with the spec body, for the given number of requests', async () => {
    const fault = await backend.faults.add({ method: 'POST', path: '/auth/login', status: 503, times: 1 });
    expect(fault).toMatchObject({ id: expect.any(String), remaining: 1 });
    await expect(login(BASE)).rejects.toThrow('login failed: 503 {"code":3,"error":"the service is disabled"}');
    await login(BASE);
    expect(await backend.faults.list()).toMatchObject([{ id: fault.id, remaining: 0, applied: 1 }]);
  });

  it('fails the fetch with a network error for network "reset", and changes nothing', async () => {
    const { auth } = await signUp(BASE, 'ann');
    await backend.faults.add({ path: '/object-storage/classes/{tableName}', network: 'reset' });
    await expect(createRow(auth)).rejects.toThrow(TypeError);
    expect(await backend.rows('Note')).toEqual([]);
    await backend.faults.clear();
    expect((await createRow(auth)).status).toBe(201);
  });

  it('delays the real answer', async () => {
    await backend.faults.add({ path: '/auth/login', delayMs: 300 });
    const started = performance.now();
    await login(BASE);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('is removed by reset(), one by one or all at once', async () => {
    const a = await backend.faults.add({ path: '/auth/login', status: 500 });
    await backend.faults.add({ path: '/auth/users', status: 500 });
    await backend.faults.remove(a.id);
    expect((await backend.faults.list()).map((f) => f.path)).toEqual(['/auth/users']);
    await backend.reset();
    expect(await backend.faults.list()).toEqual([]);
  });

  it('shows in the request inspector as injected', async () => {
    const fault = await backend.faults.add({ path: '/auth/login', status: 502 });
    await login(BASE).catch(() => undefined);
    const res = await fetch(`${BASE}/__admin/requests?area=users`, {
      headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': masterKey },
    });
    const { requests } = (await res.json()) as { requests: { status: number; injected?: unknown }[] };
    expect(requests[0]).toMatchObject({ status: 502, injected: { faultId: fault.id, kind: 'status' } });
  });
});

describe('faults with a seeded backend', () => {
  const seeded = createHandlers({
    baseUrl: 'https://seeded.basekit.test',
    seed: { users: [{ username: 'ann', password: 'pw' }] },
  });

  it('are removed by reset() too, which restores the snapshot saved after the seed', async () => {
    server.use(...seeded);
    expect((await seeded.snapshots.list()).map((s) => s.name)).toEqual(['basekit-seed']);
    await seeded.faults.add({ path: '/auth/login', status: 500 });
    await seeded.reset();
    expect(await seeded.faults.list()).toEqual([]);
    expect((await seeded.snapshots.list())[0]).toMatchObject({ name: 'basekit-seed', restores: 1 });
  });
});

describe('snapshots in msw', () => {
  it('save the backend and restore it exactly, a seeded one resets through its seed snapshot', async () => {
    const { auth } = await signUp(BASE, 'ann');
    await createRow(auth);
    const before = await backend.state();
    const saved = await backend.snapshots.save('one-row');
    expect(saved).toMatchObject({ name: 'one-row', restores: 0 });
    await createRow(auth);
    await signUp(BASE, 'bob');
    expect(await backend.rows('Note')).toHaveLength(2);
    await backend.snapshots.restore('one-row');
    expect(await backend.state()).toEqual(before);
    expect((await backend.snapshots.list()).map((s) => s.name)).toEqual(['one-row']);
    await backend.snapshots.delete('one-row');
    await expect(backend.snapshots.restore('one-row')).rejects.toMatchObject({ status: 404, code: 43 });
  });
});
