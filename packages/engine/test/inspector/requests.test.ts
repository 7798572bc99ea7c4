// The request inspector's list and detail API over real HTTP: what is recorded, masked, filtered and paged.
import type { ExchangeDetails, ExchangeSummary } from '@basekit/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uploadForm, storageHeaders } from '../files/support.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, type TestUser } from '../support/users.js';

interface Page {
  requests: ExchangeSummary[];
  next: string | null;
  capacity: number;
}

let server: TestServer;
let ann: TestUser;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  ann = await createUser(server, 'ann');
  await server.admin('/__admin/requests', { method: 'DELETE' });
});

async function list(query = ''): Promise<Page> {
  const res = await server.admin(`/__admin/requests${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

async function details(id: string): Promise<ExchangeDetails> {
  const res = await server.admin(`/__admin/requests/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as ExchangeDetails;
}

const db = (user: TestUser) => ({
  'X-Service-Object-Storage-Id': server.config.objectStorageId,
  ...user.auth,
  'Content-Type': 'application/json',
});

describe('GET /__admin/requests', () => {
  it('lists answered requests newest first, with caller, area, status and timing; not its own calls', async () => {
    const created = await server.request('/object-storage/classes/Score', {
      method: 'POST',
      headers: db(ann),
      body: JSON.stringify({ score: 7 }),
    });
    const { _id } = (await created.json()) as { _id: string };
    await server.request(`/object-storage/classes/Score/${_id}?keys=score`, { headers: db(ann) });
    await server.request('/object-storage/classes/Score/missing', { headers: db(ann) });
    await server.admin('/__admin/outbox');
    await server.request('/auth/users/me', {
      headers: { ...authIdHeader(server), Authorization: 'Bearer not-a-token' },
    });

    const { requests, capacity } = await list();
    expect(capacity).toBe(500);
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status} ${r.area} ${r.caller.kind}`)).toEqual([
      'GET /auth/users/me 401 users anonymous',
      'GET /__admin/outbox 200 admin master',
      'GET /object-storage/classes/Score/missing 404 database user',
      `GET /object-storage/classes/Score/${_id}?keys=score 200 database user`,
      'POST /object-storage/classes/Score 201 database user',
    ]);
    expect(requests[2]!.caller).toEqual({ kind: 'user', userId: ann.userId, username: 'ann' });
    for (const r of requests) {
      expect(Date.now() - Date.parse(r.time)).toBeLessThan(60_000);
      expect(r.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('filters by area, status class, user and text, and pages with before', async () => {
    const bob = await createUser(server, 'bob');
    for (const user of [ann, bob, ann])
      await server.request('/object-storage/classes/T', {
        method: 'POST',
        headers: db(user),
        body: JSON.stringify({ owner: user.username }),
      });
    await server.request('/object-storage/classes/T/nope', { headers: db(bob) });

    expect((await list('?area=database')).requests).toHaveLength(4);
    expect((await list('?area=users')).requests.map((r) => r.path)).toEqual(['/auth/login', '/auth/users']);
    expect((await list('?status=4xx')).requests.map((r) => r.status)).toEqual([404]);
    expect((await list('?status=201')).requests).toHaveLength(3);
    expect((await list(`?user=${ann.userId}`)).requests).toHaveLength(2);
    expect((await list('?user=ann')).requests).toHaveLength(2);
    expect((await list('?user=anonymous')).requests).toHaveLength(2);
    // Text is looked for in the callers' usernames and in the bodies too.
    expect((await list('?text=BOB')).requests.map((r) => r.path)).toEqual([
      '/object-storage/classes/T/nope',
      '/object-storage/classes/T',
      '/auth/login',
      '/auth/users',
    ]);

    const first = await list('?area=database&limit=3');
    expect(first.requests).toHaveLength(3);
    const second = await list(`?area=database&limit=3&before=${first.next!}`);
    expect(second.requests.map((r) => r.path)).toEqual(['/object-storage/classes/T']);
    expect(second.next).toBeNull();
    expect(new Set([...first.requests, ...second.requests].map((r) => r.id)).size).toBe(4);
  });

  it('filters by method and a path pattern as the contract writes paths, and counts every match with count=1', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.request('/object-storage/classes/Score', {
        method: 'POST',
        headers: db(ann),
        body: JSON.stringify({ i }),
      });
      ids.push(((await res.json()) as { _id: string })._id);
    }
    for (const id of ids) await server.request(`/object-storage/classes/Score/${id}/?keys=i`, { headers: db(ann) });
    await server.request(`/object-storage/classes/Other/${ids[0]}`, { method: 'DELETE', headers: db(ann) });

    const rows = '/object-storage/classes/{tableName}/{objectId}';
    expect((await list(`?method=get&path=${encodeURIComponent(rows)}`)).requests).toHaveLength(3);
    expect((await list(`?path=${encodeURIComponent(rows)}`)).requests.map((r) => r.method)).toEqual([
      'DELETE',
      'GET',
      'GET',
      'GET',
    ]);
    expect(
      (await list(`?method=POST&path=${encodeURIComponent('/object-storage/classes/Score')}`)).requests,
    ).toHaveLength(3);
    const page = await list(`?path=${encodeURIComponent(rows)}&limit=1&count=1`);
    expect([page.requests.length, (page as Page & { count: number }).count]).toEqual([1, 4]);
    expect((await list('?count=1&method=PATCH')) as Page & { count: number }).toMatchObject({ requests: [], count: 0 });
  });

  it('answers 400 for a bad filter, 403 without the master key', async () => {
    for (const query of [
      '?area=nowhere',
      '?status=6xx',
      '?status=abc',
      '?limit=0',
      '?limit=x',
      '?before=zzz',
      '?path=no-slash',
    ]) {
      const res = await server.admin(`/__admin/requests${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ code: 142 });
    }
    expect((await server.request('/__admin/requests')).status).toBe(403);
    expect((await server.request('/__admin/requests/stream')).status).toBe(403);
  });

  it('pages, finds and keeps its order once the newest requests have taken the oldest places, as the limit changes', async () => {
    const setLimit = (inspectorLimit: number) => server.patchConfig({ inspectorLimit });
    const row = (n: number) => `/object-storage/classes/T/n${n}`;
    const getRow = (n: number) => server.request(row(n), { headers: db(ann) });
    const paths = async (query = '') => (await list(query)).requests.map((r) => r.path);
    await setLimit(4);
    for (let n = 0; n < 7; n++) await getRow(n);
    expect(await paths()).toEqual([row(6), row(5), row(4), row(3)]);
    const first = await list('?limit=2');
    expect(first.requests.map((r) => r.path)).toEqual([row(6), row(5)]);
    const second = await list(`?limit=2&before=${first.next!}`);
    expect(second.requests.map((r) => r.path)).toEqual([row(4), row(3)]);
    expect(second.next).toBeNull();
    const oldest = second.requests[1]!;
    expect((await details(oldest.id)).path).toBe(row(3));
    const [run, seq] = oldest.id.split('-');
    expect((await server.admin(`/__admin/requests/${run}-${Number(seq) - 1}`)).status).toBe(404);

    await setLimit(6); // the change of config is a kept request too
    await getRow(7);
    expect(await paths()).toEqual([row(7), '/__admin/config', row(6), row(5), row(4), row(3)]);
    await setLimit(2);
    await getRow(8);
    expect(await paths()).toEqual([row(8), '/__admin/config']);
  });

  it('keeps the last inspectorLimit requests; 0 switches recording off (409, code 171)', async () => {
    await server.patchConfig({ inspectorLimit: 3 });
    for (let i = 0; i < 5; i++) await server.request(`/object-storage/classes/T/n${i}`, { headers: db(ann) });
    expect((await list()).requests.map((r) => r.path)).toEqual([
      '/object-storage/classes/T/n4',
      '/object-storage/classes/T/n3',
      '/object-storage/classes/T/n2',
    ]);

    await server.patchConfig({ inspectorLimit: 0 });
    for (const path of ['/__admin/requests', '/__admin/requests/stream']) {
      const res = await server.admin(path);
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ code: 171 });
    }
  });
});

describe('GET /__admin/requests/{id}', () => {
  it('shows headers and JSON bodies with every secret masked', async () => {
    const form = new FormData();
    form.set('username', 'ann');
    form.set('password', ann.password);
    await server.request('/auth/login', {
      method: 'POST',
      headers: { ...authIdHeader(server), 'X-Service-Authentication-Key': server.config.clientKey },
      body: form,
    });
    await server.request(`/auth/logout?refresh-token=${ann.refreshToken}`, {
      method: 'DELETE',
      headers: { ...authIdHeader(server), 'X-Service-Authentication-Key': server.config.clientKey },
    });
    await server.request('/object-storage/classes/Note', {
      method: 'POST',
      headers: db(ann),
      body: JSON.stringify({ text: 'hi', nested: { password: 'hunter2' } }),
    });

    const [note, logout, login] = (await list()).requests;
    const noteShown = await details(note!.id);
    expect(noteShown.request.headers['authorization']).toBe('Bearer [masked]');
    expect(noteShown.request.body).toEqual({
      kind: 'json',
      size: expect.any(Number),
      json: { text: 'hi', nested: { password: '[masked]' } },
    });
    expect(noteShown.response.body).toMatchObject({ kind: 'json', json: { _id: expect.any(String) } });

    expect(logout!.path).toBe('/auth/logout?refresh-token=[masked]');
    const loginShown = await details(login!.id);
    expect(loginShown.request.headers['x-service-authentication-key']).toBe('[masked]');
    expect(loginShown.request.body).toEqual({ kind: 'form', fields: { username: 'ann', password: '[masked]' } });
    expect(loginShown.response.body).toMatchObject({
      kind: 'json',
      json: {
        access_token: '[masked]',
        refresh_token: '[masked]',
        token_type: 'bearer',
        scope: 'client',
      },
    });

    const everything = JSON.stringify([noteShown, loginShown, await details(logout!.id)]);
    for (const secret of [ann.password, ann.refreshToken, ann.accessToken, server.config.clientKey, 'hunter2'])
      expect(everything).not.toContain(secret);
  });

  it('shows the error an operation answered, and a streamed upload by its size only', async () => {
    const bytes = new Uint8Array(200_000).fill(7);
    // With its Content-Length, as an HTTP client sends a form (in process no header tells the size: inspector.test.ts).
    const form = new Response(uploadForm([{ name: 'blob.bin', content: bytes, path: '/a' }]));
    const body = new Uint8Array(await form.arrayBuffer());
    const up = await server.request('/files', {
      method: 'POST',
      headers: {
        ...storageHeaders(server, ann.auth),
        'Content-Type': form.headers.get('content-type')!,
        'Content-Length': String(body.byteLength),
      },
      body,
    });
    expect(up.status).toBe(200);
    await server.request('/object-storage/classes/T/none', { headers: db(ann) });

    const [missing, upload] = (await list()).requests;
    expect((await details(missing!.id)).response.body).toMatchObject({ kind: 'json', json: { code: 101 } });
    const shown = await details(upload!.id);
    expect(shown.request.body).toMatchObject({
      kind: 'omitted',
      reason: 'unread',
      contentType: expect.stringMatching(/^multipart\/form-data/),
    });
    expect((shown.request.body as { size: number }).size).toBeGreaterThan(200_000);
  });

  it('shows a large JSON body by its size only', async () => {
    await server.patchConfig({ inspectorBodyBytes: 100 });
    await server.request('/object-storage/classes/Big', {
      method: 'POST',
      headers: db(ann),
      body: JSON.stringify({ text: 'x'.repeat(500) }),
    });
    const shown = await details((await list()).requests[0]!.id);
    expect(shown.request.body).toEqual({
      kind: 'omitted',
      reason: 'large',
      size: 511,
      contentType: 'application/json',
    });
  });

  it('answers 404 (code 170) for a request that is not kept', async () => {
    for (const id of ['nothing', `${(await list('?limit=1')).requests[0]?.id ?? 'x-1'}9999`]) {
      const res = await server.admin(`/__admin/requests/${id}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 170 });
    }
  });
});
