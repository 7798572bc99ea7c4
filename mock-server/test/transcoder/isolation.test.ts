// One user cannot reach another's results or hold the transcoder: settings are scoped to their owner (the master
// token's are the project's, visible to every user), each user has limits on stored settings and waiting jobs,
// and the queue takes users in turn. The engine runs with its simulated runner and in-memory receivers.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEngine, DEFAULT_CONFIG, type Engine, type JobRecord } from '@basekit/engine';
import { Receiver } from './support.js';

const ENGINE = 'http://engine.test';
/** Sources on this origin never answer (until the job's own signal gives up). */
const HANGING = 'http://hanging.test';
const MASTER_KEY = { 'x-service-authentication-key': 'dev-master-key' };

let engine: Engine;
let receivers: Record<'a' | 'b' | 'app', Receiver>;

function receiverAt(name: string): Receiver {
  const receiver = new Receiver(mkdtempSync(join(tmpdir(), `transcoder-isolation-${name}-`)));
  receiver.url = `http://${name}.test`;
  mkdirSync(join(receiver.root, 'src'));
  writeFileSync(join(receiver.root, 'src/video.mp4'), 'any bytes: the simulation decodes nothing');
  return receiver;
}

async function outbound(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const { origin } = new URL(request.url);
  if (origin === HANGING)
    return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
  const receiver = Object.values(receivers).find((r) => r.url === origin);
  return receiver ? receiver.fetch(request) : Response.error();
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init: RequestInit = {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
  return engine.fetch(new Request(`${ENGINE}${path}`, init));
}

async function login(form: Record<string, string>, key: string): Promise<Record<string, string>> {
  const body = new FormData();
  for (const [k, v] of Object.entries(form)) body.set(k, v);
  const headers = { 'x-service-authentication-id': 'dev-auth-id', 'x-service-authentication-key': key };
  const res = await engine.fetch(new Request(`${ENGINE}/auth/login`, { method: 'POST', headers, body }));
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

/** Registers a user and answers a function posting JSON with their token. */
async function user(username: string) {
  const registered = await call(
    'POST',
    '/auth/users',
    { username, password: `pw-${username}` },
    { 'x-service-authentication-id': 'dev-auth-id' },
  );
  expect(registered.status).toBe(200);
  const auth = await login({ username, password: `pw-${username}` }, 'dev-client-key');
  return (path: string, body: unknown) => call('POST', path, body, auth);
}

async function jobs(): Promise<JobRecord[]> {
  return ((await (await call('GET', '/__admin/jobs', undefined, MASTER_KEY)).json()) as { jobs: JobRecord[] }).jobs;
}

async function convert(
  as: Awaited<ReturnType<typeof user>>,
  body: Record<string, unknown>,
): Promise<{ requestId: string; videoId: string }> {
  const res = await as('/video/convert', { thumbnail: true, webhook: true, ...body });
  expect(res.status).toBe(202);
  return (await res.json()) as { requestId: string; videoId: string };
}

let alice: Awaited<ReturnType<typeof user>>;
let bob: Awaited<ReturnType<typeof user>>;
let master: Awaited<ReturnType<typeof user>>;

beforeEach(async () => {
  receivers = { a: receiverAt('a'), b: receiverAt('b'), app: receiverAt('app') };
  engine = createEngine({ config: DEFAULT_CONFIG, capabilities: { fetch: outbound } });
  await call('PATCH', '/__admin/transcoder/policy', { retryDelayMs: 1, deliveryAttempts: 1 }, MASTER_KEY);
  alice = await user('alice');
  bob = await user('bob');
  const masterAuth = await login({}, 'dev-master-key');
  master = (path, body) => call('POST', path, body, masterAuth);
  for (const [as, r] of [
    [alice, receivers.a],
    [bob, receivers.b],
  ] as const) {
    expect((await as('/metadata/webhook', { name: 'mine', default: true, url: `${r.url}/webhook` })).status).toBe(201);
    expect((await as('/metadata/thumbnail', { name: 'one', default: true, shots: ['00:00:01'] })).status).toBe(201);
  }
});

describe('settings scoping', () => {
  it("keeps each user's names apart: nobody can redirect another user's results", async () => {
    expect((await alice('/metadata/upload', { name: 'results', url: `${receivers.a.url}/upload` })).status).toBe(201);
    // Bob saves an upload setting of the same name, pointing at his own address: a new record of his.
    expect((await bob('/metadata/upload', { name: 'results', url: `${receivers.b.url}/upload` })).status).toBe(201);
    expect(
      (await bob('/metadata/upload', { name: 'results', default: true, url: `${receivers.b.url}/upload` })).status,
    ).toBe(200);

    const { requestId, videoId } = await convert(alice, { url: `${receivers.a.url}/src/video.mp4`, upload: 'results' });
    expect((await receivers.a.notificationsOf(requestId, 1, 10))[0]!.status).toBe('COMPLETE');
    expect(receivers.a.deliveriesOf(videoId)).toHaveLength(1);
    expect(receivers.b.deliveries).toEqual([]);
    expect(receivers.b.notifications).toEqual([]);
  });

  it("does not resolve another user's names or defaults", async () => {
    await bob('/metadata/upload', { name: 'bobs', default: true, url: `${receivers.b.url}/upload` });
    for (const upload of ['bobs', true]) {
      const res = await alice('/video/convert', { url: `${receivers.a.url}/src/video.mp4`, upload, thumbnail: true });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 700 });
    }
    expect(await jobs()).toEqual([]);
  });

  it("shares the master token's settings with every user, who may shadow them only for themselves", async () => {
    expect(
      (await master('/metadata/upload', { name: 'app', default: true, url: `${receivers.app.url}/upload` })).status,
    ).toBe(201);
    expect(
      (await master('/metadata/webhook', { name: 'app', default: true, url: `${receivers.app.url}/webhook` })).status,
    ).toBe(201);
    // Alice's own "app" is hers alone; Bob still gets the project's, by name and as the default.
    expect((await alice('/metadata/upload', { name: 'app', url: `${receivers.a.url}/upload` })).status).toBe(201);
    const byName = await convert(bob, { url: `${receivers.b.url}/src/video.mp4`, upload: 'app' });
    const byDefault = await convert(bob, { url: `${receivers.b.url}/src/video.mp4`, upload: true });
    const shadowed = await convert(alice, { url: `${receivers.a.url}/src/video.mp4`, upload: 'app' });
    await receivers.b.notificationsOf(byDefault.requestId, 1, 10);
    await receivers.a.notificationsOf(shadowed.requestId, 1, 10);
    expect(receivers.app.deliveriesOf(byName.videoId)).toHaveLength(1);
    expect(receivers.app.deliveriesOf(byDefault.videoId)).toHaveLength(1);
    expect(receivers.a.deliveriesOf(shadowed.videoId)).toHaveLength(1);
    expect(receivers.app.deliveriesOf(shadowed.videoId)).toEqual([]);
    // A user's own default comes before the project's.
    await alice('/metadata/upload', { name: 'own', default: true, url: `${receivers.a.url}/upload` });
    const own = await convert(alice, { url: `${receivers.a.url}/src/video.mp4`, upload: true });
    await receivers.a.notificationsOf(own.requestId, 1, 10);
    expect(receivers.a.deliveriesOf(own.videoId)).toHaveLength(1);
  });

  it("keeps the master token to the project's settings", async () => {
    await alice('/metadata/upload', { name: 'alices', default: true, url: `${receivers.a.url}/upload` });
    const res = await master('/video/convert', {
      url: `${receivers.a.url}/src/video.mp4`,
      upload: 'alices',
      thumbnail: 'one',
    });
    expect(await res.json()).toMatchObject({ code: 700, error: expect.stringContaining('"upload"') });
  });
});

describe('per-user limits', () => {
  it('stores at most transcoderMaxSettingsPerKind names per kind and owner (400, code 704); replacing still works', async () => {
    await call('PATCH', '/__admin/config', { transcoderMaxSettingsPerKind: 2 }, MASTER_KEY);
    // Each user has a webhook "mine" already.
    expect((await alice('/metadata/webhook', { name: 'second', url: `${receivers.a.url}/webhook` })).status).toBe(201);
    const third = await alice('/metadata/webhook', { name: 'third', url: `${receivers.a.url}/webhook` });
    expect(third.status).toBe(400);
    expect(await third.json()).toMatchObject({ code: 704 });
    expect((await alice('/metadata/webhook', { name: 'second', url: `${receivers.a.url}/other` })).status).toBe(200);
    expect((await bob('/metadata/webhook', { name: 'second', url: `${receivers.b.url}/webhook` })).status).toBe(201);
  });

  it('lets a user have at most transcoderMaxQueuedJobsPerUser jobs waiting (400, code 703); the master token is not limited', async () => {
    await call('PATCH', '/__admin/config', { transcoderMaxQueuedJobsPerUser: 2 }, MASTER_KEY);
    await alice('/metadata/upload', { name: 'r', default: true, url: `${receivers.a.url}/upload` });
    await master('/metadata/upload', { name: 'r', default: true, url: `${receivers.app.url}/upload` });
    await master('/metadata/thumbnail', { name: 'one', default: true, shots: ['00:00:01'] });
    // One job runs (hanging), two wait: the fourth is refused and nothing is queued for it.
    for (let i = 0; i < 3; i++) await convert(alice, { url: `${HANGING}/video.mp4`, upload: true, webhook: false });
    const refused = await alice('/video/convert', { url: `${HANGING}/video.mp4`, upload: true, thumbnail: true });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 703, error: expect.stringContaining('2 jobs waiting') });
    expect(await jobs()).toHaveLength(3);
    for (let i = 0; i < 4; i++)
      expect(
        (await master('/video/convert', { url: `${HANGING}/video.mp4`, upload: true, thumbnail: true })).status,
      ).toBe(202);
  });
});

describe('job history', () => {
  it('keeps the last transcoderJobHistory finished jobs', async () => {
    await call('PATCH', '/__admin/config', { transcoderJobHistory: 2 }, MASTER_KEY);
    await alice('/metadata/upload', { name: 'r', default: true, url: `${receivers.a.url}/upload` });
    const requests: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { requestId } = await convert(alice, { url: `${receivers.a.url}/src/video.mp4`, upload: true });
      await receivers.a.notificationsOf(requestId, 1, 10);
      await expect.poll(async () => (await jobs()).find((j) => j.requestId === requestId)?.finishedAt).toBeDefined();
      requests.push(requestId);
    }
    // The two before the last submission were kept, and the last one itself.
    expect((await jobs()).map((j) => j.requestId)).toEqual(requests.slice(2));
  });
});

describe('fair scheduling', () => {
  it("starts another user's job while one user's backlog waits", async () => {
    await alice('/metadata/upload', { name: 'r', default: true, url: `${receivers.a.url}/upload` });
    await bob('/metadata/upload', { name: 'r', default: true, url: `${receivers.b.url}/upload` });
    // Alice's jobs fetch sources that never answer: without fairness they would hold every slot.
    for (let i = 0; i < 6; i++) await convert(alice, { url: `${HANGING}/video-${i}.mp4`, upload: true });
    const { requestId } = await convert(bob, { url: `${receivers.b.url}/src/video.mp4`, upload: true });
    expect((await receivers.b.notificationsOf(requestId, 1, 5))[0]!.status).toBe('COMPLETE');
    const states = (await jobs()).filter((j) => j.url.startsWith(HANGING)).map((j) => j.state);
    expect(states.filter((s) => s === 'queued').length).toBeGreaterThanOrEqual(4);
  });
});
