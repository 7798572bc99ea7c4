import { bypass, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../mock-server/test/support/server.js';
import { createHandlers, type BasekitHandlers } from '../src/index.js';
import {
  BASE,
  authenticationId,
  collector,
  gameId,
  json,
  login,
  objectStorageId,
  signUp,
  storageId,
} from './support.js';

const unhandled: string[] = [];
const server = setupServer();
let backend: BasekitHandlers;

beforeAll(() =>
  server.listen({
    onUnhandledRequest: (request, print) => {
      unhandled.push(`${request.method} ${request.url}`);
      if (!request.url.startsWith('http://127.0.0.1')) print.error();
    },
  }),
);
beforeEach(() => {
  backend = createHandlers({ baseUrl: BASE });
  server.resetHandlers(...backend);
  unhandled.length = 0;
});
afterAll(() => server.close());

describe('every area through msw', () => {
  it('registers, logs in and reads the user', async () => {
    const { userId, auth } = await signUp(BASE, 'ann', { firstName: 'Ann' });
    const res = await fetch(`${BASE}/auth/users/me`, {
      headers: { 'X-Service-Authentication-Id': authenticationId, ...auth },
    });
    expect(await res.json()).toMatchObject({ userId, username: 'ann', firstName: 'Ann', active: true });
  });

  it('creates rows and queries them', async () => {
    const { auth } = await signUp(BASE, 'ann');
    const db = { 'X-Service-Object-Storage-Id': objectStorageId, ...auth };
    for (const [title, stars] of [
      ['a', 3],
      ['b', 5],
      ['c', 1],
    ] as const) {
      expect((await fetch(`${BASE}/object-storage/classes/Note`, json('POST', { title, stars }, db))).status).toBe(201);
    }
    const res = await fetch(
      `${BASE}/object-storage/classes/query/Note?order=-stars&count=1`,
      json('POST', { stars: { $gte: 2 } }, db),
    );
    const { results, count } = (await res.json()) as { results: { title: string }[]; count: number };
    expect({ titles: results.map((r) => r.title), count }).toEqual({ titles: ['b', 'a'], count: 2 });
  });

  it('uploads a file and serves it at its public address', async () => {
    const { auth } = await signUp(BASE, 'ann');
    const form = new FormData();
    form.set('fileItems[0].fileToUpload', new Blob(['hello msw'], { type: 'text/plain' }), 'hello.txt');
    form.set('fileItems[0].path', 'docs');
    const res = await fetch(`${BASE}/files`, {
      method: 'POST',
      headers: { 'X-Service-Storage-Id': storageId, ...auth },
      body: form,
    });
    const { savedFilesUrls } = (await res.json()) as { savedFilesUrls: string[] };
    const download = await fetch(`${BASE}/${storageId}/${savedFilesUrls[0]}?name=greeting.txt`);
    expect(await download.text()).toBe('hello msw');
    expect(download.headers.get('content-disposition')).toContain('greeting.txt');
  });

  it('ranks game events', async () => {
    const players = [await signUp(BASE, 'ann'), await signUp(BASE, 'bob')];
    for (const [i, { auth }] of players.entries()) {
      const event = { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 10 + i * 5 }] };
      expect(
        (await fetch(`${BASE}/game/events`, json('POST', event, { 'X-Service-Game-Id': gameId, ...auth }))).status,
      ).toBe(200);
    }
    const res = await fetch(`${BASE}/game/leaderboards/top/high-score?count=10`, {
      headers: { 'X-Service-Game-Id': gameId, ...players[0]!.auth },
    });
    const { usersProfile } = (await res.json()) as {
      usersProfile: { userBriefProfile: { userName: string }; scores: number[] }[];
    };
    expect(usersProfile.map((p) => [p.userBriefProfile.userName, p.scores[0]])).toEqual([
      ['bob', 15],
      ['ann', 10],
    ]);
  });

  it('runs the simulated transcoder, whose deliveries and webhooks go through msw to the test', async () => {
    const { auth } = await signUp(BASE, 'ann');
    const webhooks = collector<Record<string, unknown>>(1);
    const uploads: FormData[] = [];
    server.use(
      http.post('https://hooks.test/webhook', async ({ request }) => {
        webhooks.add((await request.json()) as Record<string, unknown>);
        return new HttpResponse(null, { status: 204 });
      }),
      http.post('https://hooks.test/upload', async ({ request }) => {
        uploads.push(await request.formData());
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('https://videos.test/in.mp4', () => new HttpResponse(new Uint8Array(64))),
    );
    const post = (path: string, body: unknown) => fetch(`${BASE}${path}`, json('POST', body, auth));
    expect((await post('/metadata/upload', { name: 'up', url: 'https://hooks.test/upload' })).status).toBe(201);
    expect((await post('/metadata/webhook', { name: 'hook', url: 'https://hooks.test/webhook' })).status).toBe(201);
    expect((await post('/metadata/thumbnail', { name: 'two', shots: ['00:00:01', '00:00:02'] })).status).toBe(201);
    const convert = await post('/video/convert', {
      url: 'https://videos.test/in.mp4',
      upload: 'up',
      webhook: 'hook',
      thumbnail: 'two',
    });
    const { requestId } = (await convert.json()) as { requestId: string };

    const [note] = await webhooks.all;
    expect(note).toMatchObject({ requestId, status: 'COMPLETE', job: 'thumbnail' });
    expect(
      uploads.map((form) => [form.get('requestId'), form.get('thumbnail'), (form.get('file') as File).type]),
    ).toEqual([
      [requestId, 'true', 'image/jpeg'],
      [requestId, 'true', 'image/jpeg'],
    ]);
    expect((await backend.jobs()).map((job) => [job.requestId, job.state])).toEqual([[requestId, 'complete']]);
  });
});

describe('msw behaviour', () => {
  it('leaves requests the engine has no operation for to onUnhandledRequest', async () => {
    await expect(fetch(`${BASE}/no/such/operation`, { method: 'POST' })).rejects.toThrow();
    expect(unhandled).toEqual([`POST ${BASE}/no/such/operation`]);
  });

  it('claims the 404s the service itself answers', async () => {
    const res = await fetch(`${BASE}/${storageId}/missing.txt`);
    expect({ status: res.status, body: await res.json(), unhandled }).toEqual({
      status: 404,
      body: { code: 602, error: expect.any(String) },
      unhandled: [],
    });
  });

  it('lets a test override an operation with server.use', async () => {
    server.use(
      http.get(`${BASE}/auth/users/me`, () => HttpResponse.json({ code: 500, error: 'down' }, { status: 500 })),
    );
    const { auth } = await signUp(BASE, 'ann');
    const res = await fetch(`${BASE}/auth/users/me`, {
      headers: { 'X-Service-Authentication-Id': authenticationId, ...auth },
    });
    expect(res.status).toBe(500);
  });

  it('registers one handler per distinct base, and serves each', async () => {
    expect(createHandlers({ baseUrl: BASE, storageUrl: `${BASE}/`, transcoderUrl: BASE })).toHaveLength(1);
    const split = createHandlers({ baseUrl: `${BASE}/v1`, storageUrl: 'https://cdn.basekit.test' });
    expect(split).toHaveLength(2);
    server.resetHandlers(...split);
    const { auth } = await signUp(`${BASE}/v1`, 'ann');
    const res = await fetch(
      'https://cdn.basekit.test/directories',
      json('POST', { path: 'a' }, { 'X-Service-Storage-Id': storageId, ...auth }),
    );
    expect(res.status).toBe(201);
    // Without the prefix, the base URL's origin is not the service.
    await expect(fetch(`${BASE}/auth/users`, json('POST', {}))).rejects.toThrow();
    expect(unhandled).toEqual([`POST ${BASE}/auth/users`]);
  });
});

describe('faithful to the reference server', () => {
  let real: TestServer;
  beforeAll(async () => (real = await startTestServer()));
  afterAll(() => real.close());
  afterEach(() => real.reset());

  /** The status and body both backends answer to the same request. */
  async function both(path: string, init: () => RequestInit) {
    const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });
    return {
      msw: await answer(await fetch(`${BASE}${path}`, init())),
      real: await answer(await fetch(bypass(`${real.url}${path}`, init()))),
    };
  }

  it.each([
    [
      'wrong authentication id',
      '/auth/users',
      () => json('POST', { username: 'x', password: 'y' }, { 'X-Service-Authentication-Id': 'nope' }),
    ],
    [
      'name too long',
      '/auth/users',
      () =>
        json('POST', { username: 'x'.repeat(41), password: 'y' }, { 'X-Service-Authentication-Id': authenticationId }),
    ],
    [
      'bad JSON',
      '/auth/users',
      () => ({ method: 'POST', headers: { 'X-Service-Authentication-Id': authenticationId }, body: '{' }),
    ],
    [
      'no token',
      '/object-storage/classes/Note',
      () => json('POST', {}, { 'X-Service-Object-Storage-Id': objectStorageId }),
    ],
    ['wrong game id', '/game/events', () => json('POST', {}, { 'X-Service-Game-Id': 'nope' })],
  ])('answers the same error: %s', async (_name, path, init) => {
    const { msw, real: reference } = await both(path, init);
    expect(msw).toEqual(reference);
    expect(msw.status).toBeGreaterThanOrEqual(400);
  });

  it('answers the same query results', async () => {
    const rows = [
      { n: 1, tag: 'x' },
      { n: 2, tag: 'y' },
      { n: 3, tag: 'x' },
    ];
    const setups = [
      { base: BASE, send: fetch },
      { base: real.url, send: (url: string, init: RequestInit) => fetch(bypass(url, init)) },
    ];
    const answers = [];
    for (const { base, send } of setups) {
      const auth = await login(base);
      const db = { 'X-Service-Object-Storage-Id': objectStorageId, ...auth };
      for (const row of rows) await send(`${base}/object-storage/classes/T`, json('POST', row, db));
      const res = await send(
        `${base}/object-storage/classes/query/T?order=-n&keys=n,tag&count=1`,
        json('POST', { tag: 'x' }, db),
      );
      const { results, count } = (await res.json()) as { results: Record<string, unknown>[]; count: number };
      answers.push({ count, results: results.map(({ n, tag }) => ({ n, tag })) });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.count).toBe(2);
  });
});
