import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { adminRoutes } from '../src/admin/routes.js';
import { snapshotRoutes } from '../src/admin/snapshots.js';
import { AREAS } from '../src/areas/index.js';
import { developmentConfig } from '../src/config.js';
import { faultsRoutes } from '../src/faults/routes.js';
import { createEngine, type Engine } from '../src/index.js';
import { inspectorRoutes } from '../src/inspector/routes.js';
import { changes, declaredRoutes, reads } from '../src/shared/durability/declarations.js';
import { createRoutes } from '../src/shared/http/routes.js';
import { MemoryJournal } from './support/memory-journal.js';

// Durability declared by the routes (shared/durability/declarations.ts), checked on the engine alone: no disk, no Node server.
// Every route of the engine is sent a request that succeeds, kept by a journal in memory; an engine started from that
// journal replays them and must hold the same state. A route that changes state but declares `reads` leaves its
// change out of the journal, and the restarted engine differs (each change is left standing at the end of the walk,
// so that its loss shows; but where another route that changes state matches the same request, which the journal
// then follows, and for a conversion, whose job keeps the transcoder's state as it runs). A route the walk does not
// reach fails the coverage check, so a new route comes with its request here.

const ORIGIN = 'http://engine.test';
const config = developmentConfig({
  emailConfirmation: true,
  events: [{ name: 'match_end', fields: ['score', 'kills'] }],
  leaderboards: ['high-score', 'kills', 'wins', 'spare'].map((id) => ({
    id,
    fields: [{ event: 'match_end', field: id === 'kills' ? 'kills' : 'score' }],
  })),
});
const ids = {
  'X-Service-Authentication-Id': config.authenticationId!,
  'X-Service-Object-Storage-Id': config.objectStorageId!,
  'X-Service-Storage-Id': config.storageId!,
  'X-Service-Game-Id': config.gameId!,
};
const ADMIN = { 'X-Service-Authentication-Key': config.masterKey! };
const CLIENT = { 'X-Service-Authentication-Key': config.clientKey! };

/** Every route of the engine, as `createEngine` mounts them, with what each declares. */
const ROUTES = [
  adminRoutes,
  inspectorRoutes,
  faultsRoutes,
  snapshotRoutes,
  ...AREAS.map((area) => area.routes),
].flatMap(declaredRoutes);

/** The route a request reaches (the first that matches, as Hono runs them), as `METHOD /pattern`. */
const routeOf = (() => {
  const router = new TrieRouter<string>();
  for (const { method, path } of ROUTES) router.add(method, path, `${method} ${path}`);
  return (method: string, path: string) => router.match(method, new URL(path, ORIGIN).pathname)[0][0]?.[0];
})();

/** The fields of the answers the walk reads on. */
interface Answer {
  access_token: string;
  refresh_token: string;
  userId: string;
  id: string;
  password: string;
  _id: string;
  messages: { link: string }[];
  jobs: { finishedAt?: string }[];
  requests: { id: string }[];
  faults: unknown[];
}

/** An engine and the requests sent to it, each of which must succeed; `reached` collects the routes they reached. */
class Walk {
  readonly reached = new Set<string>();
  constructor(readonly engine: Engine) {}

  async send(method: string, path: string, auth: Record<string, string>, body?: unknown): Promise<Answer> {
    const json = body !== undefined && !(body instanceof FormData) && !(body instanceof URLSearchParams);
    const res = await this.engine.fetch(
      new Request(`${ORIGIN}${path}`, {
        method,
        headers: { ...ids, ...auth, ...(json && { 'Content-Type': 'application/json' }) },
        body: json ? JSON.stringify(body) : (body as FormData | URLSearchParams | undefined),
      }),
    );
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    this.reached.add(routeOf(method, path)!);
    return res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : ({} as Answer);
  }
}

const bearer = (token: { access_token: string }) => ({ Authorization: `Bearer ${token.access_token}` });

/**
 * A request to every route of the engine, in an order where each succeeds and the change each makes shows in the
 * state at the end (nothing later undoes it), so that a change the journal left out shows after the restart.
 */
async function everyRoute(walk: Walk): Promise<void> {
  const send = walk.send.bind(walk);
  await send('GET', '/__health', {});

  // Whole changes first (a named snapshot's restore, a state import: each kept as the journal snapshot it leaves),
  // then a reset: every change after it is replayed from records.
  const master = bearer(await send('POST', '/auth/login', ADMIN));
  await send('POST', '/object-storage/classes/Before', master, { n: 1 });
  await send('PUT', '/__admin/snapshots/first', ADMIN);
  await send('POST', '/object-storage/classes/Before', master, { n: 2 });
  await send('POST', '/__admin/snapshots/first/restore', ADMIN);
  await send('GET', '/__admin/snapshots', ADMIN);
  await send('DELETE', '/__admin/snapshots/first', ADMIN);
  await send('PUT', '/__admin/state', ADMIN, await send('GET', '/__admin/state', ADMIN));
  await send('POST', '/__admin/reset', ADMIN);
  await send('PATCH', '/__admin/config', ADMIN, { inspectorLimit: 50 });
  await send('GET', '/__admin/config', ADMIN);
  await send('POST', '/__admin/clock', ADMIN, { advanceSeconds: 60 });
  await send('GET', '/__admin/clock', ADMIN);

  // Users: registration, its confirmation link (a GET that changes state), log-ins, guests, updates.
  const admin = bearer(await send('POST', '/auth/login', ADMIN));
  const ann = await send('POST', '/auth/users', {}, { username: 'ann', password: 'pw-ann', email: 'ann@example.com' });
  const [mail] = (await send('GET', '/__admin/outbox', ADMIN)).messages;
  await send('GET', new URL(mail!.link).pathname, {});
  const annLogin = await send(
    'POST',
    '/auth/login',
    CLIENT,
    new URLSearchParams({ username: 'ann', password: 'pw-ann' }),
  );
  const annAuth = bearer(annLogin);
  const refresh = new URLSearchParams({ refresh_token: annLogin.refresh_token });
  await send('POST', '/auth/login', { ...CLIENT, 'X-Service-Authentication-Refresh': '1' }, refresh);
  await send('DELETE', `/auth/logout?refresh-token=${annLogin.refresh_token}`, CLIENT);
  const guest = await send('POST', '/auth/guest-users', {});
  await send('POST', '/auth/guest-users/complete-registration-master', admin, {
    userId: guest.id,
    newUsername: 'gus',
    lastPassword: guest.password,
    newPassword: 'pw-gus',
    email: 'gus@example.com',
  });
  const bob = await send('POST', '/auth/users', {}, { username: 'bob', password: 'pw-bob', email: 'bob@example.com' });
  const cid = await send('POST', '/auth/users', {}, { username: 'cid', password: 'pw-cid', email: 'cid@example.com' });
  await send('POST', `/__admin/users/${cid.userId}/activate`, ADMIN);
  await send('POST', '/auth/login', CLIENT, new URLSearchParams({ username: 'gus', password: 'pw-gus' }));
  await send('POST', `/__admin/users/${guest.id}/sign-out`, ADMIN);
  await send('POST', '/auth/login', CLIENT, new URLSearchParams({ username: 'cid', password: 'pw-cid' }));
  // A password set by the admin API: its hash from the request's moment, the password itself never written.
  await send('PUT', `/__admin/users/${cid.userId}/password`, ADMIN, { password: 'pw-cid-2' });
  await send('POST', '/auth/login', CLIENT, new URLSearchParams({ username: 'cid', password: 'pw-cid-2' }));
  // Faults live for the run only; a delayed request is kept as any other (its seed drawn from the request's moment).
  await send('POST', '/__admin/faults', ADMIN, { method: 'PUT', path: '/auth/users/me', delayMs: 1, probability: 1 });
  const gone = await send('POST', '/__admin/faults', ADMIN, { path: '/auth/users/me', status: 503, times: 1 });
  await send('DELETE', `/__admin/faults/${gone.id}`, ADMIN);
  await send('PUT', '/auth/users/me', annAuth, { firstName: 'Ann' });
  await send('GET', '/__admin/faults', ADMIN);
  await send('DELETE', '/__admin/faults', ADMIN);
  // Left set: a restart starts with none.
  await send('POST', '/__admin/faults', ADMIN, { method: 'PATCH', path: '/auth/users/me', status: 503 });
  await send('PUT', `/auth/users/${guest.id}`, admin, { lastName: 'Guest' });
  await send('GET', '/auth/users/me', annAuth);
  await send('GET', '/auth/users/search?word=an', admin);
  await send('GET', '/__admin/users?q=an', ADMIN);
  await send('GET', '/auth/users', admin);
  await send('GET', '/auth/users/get-number-of-user', admin);
  await send('POST', '/auth/users/by-user-ids', admin, { userIds: [ann.userId] });
  await send('GET', '/auth/users/by-username/ann', annAuth);
  await send('GET', `/auth/users/${ann.userId}`, annAuth);

  // Database.
  const row = await send('POST', '/object-storage/classes/Item', annAuth, { name: 'a' });
  const kept = await send('POST', '/object-storage/classes/Item/', annAuth, { name: 'b' });
  await send('PUT', `/object-storage/classes/Item/${kept._id}`, annAuth, { name: 'c' });
  await send('GET', `/object-storage/classes/Item/${row._id}`, annAuth);
  await send('POST', '/object-storage/classes/query/Item', annAuth, {});
  await send('POST', '/object-storage/batch', annAuth, {
    requests: [{ method: 'POST', path: '/classes/Item', body: {} }],
  });
  await send('DELETE', `/object-storage/classes/Item/${row._id}`, annAuth);
  await send('POST', '/object-storage/classes/Gone', admin, { n: 1 });
  await send('DELETE', '/object-storage/classes/Gone', admin);
  await send('GET', '/__admin/database/tables', ADMIN);
  // The table admin API: rows imported (ids and timestamps drawn from the request's moment), a column renamed and one
  // dropped, a table deleted.
  await send('POST', '/__admin/database/tables/Shelf/import', ADMIN, {
    columns: [{ name: 'size', type: 'Number' }],
    rows: [
      { size: 1, label: 'a', spare: true },
      { _id: 'kept-id', size: 2, label: 'b', spare: false },
    ],
  });
  await send('PATCH', '/__admin/database/tables/Shelf/columns/label', ADMIN, { name: 'title' });
  await send('DELETE', '/__admin/database/tables/Shelf/columns/spare', ADMIN);
  await send('GET', '/__admin/database/tables/Shelf', ADMIN);
  await send('POST', '/object-storage/classes/Dropped', admin, { n: 1 });
  await send('DELETE', '/__admin/database/tables/Dropped', ADMIN);

  // Leaderboards: each reset empties what was set before it, each score set or sent afterwards stays.
  const event = (fields: Record<string, number>) => ({
    eventName: 'match_end',
    fieldsAndValues: Object.entries(fields).map(([fieldName, value]) => ({ fieldName, value })),
  });
  const scores = (board: string, userId: string, value: number) =>
    send('PUT', `/game/leaderboards/${board}/scores`, admin, { userId, scores: [value] });
  await scores('wins', guest.id, 50);
  await send('PUT', '/game/leaderboards/reset', admin);
  await scores('high-score', ann.userId, 70);
  await send('PUT', '/__admin/leaderboards/high-score/reset', ADMIN);
  await scores('kills', ann.userId, 3);
  await send('PUT', '/game/leaderboards/kills/reset', admin);
  await send('POST', '/game/events', annAuth, event({ score: 10, kills: 1 }));
  await send('POST', '/game/events/bulk', admin, {
    eventBunchDataList: [{ userId: guest.id, ...event({ score: 20 }) }],
  });
  await scores('high-score', cid.userId, 30);
  await send('GET', '/game/leaderboards/top/high-score', annAuth);
  await send('GET', '/game/leaderboards/topPage/high-score', annAuth);
  await send('GET', '/game/leaderboards/around-me/high-score', annAuth);
  await send('GET', '/game/leaderboards/myLeaderboards', annAuth);
  await send('POST', '/game/leaderboards/usersScore/high-score', annAuth, { userIdList: [ann.userId] });
  await send('GET', '/game/leaderboards/high-score', annAuth);

  // Files.
  await send('POST', '/directories', annAuth, { path: 'docs' });
  const form = new FormData();
  form.append('fileItems[0].fileToUpload', new Blob(['hello']), 'a.txt');
  form.append('fileItems[0].path', 'docs');
  await send('POST', '/files', annAuth, form);
  await send('GET', `/${config.storageId}/docs/a.txt`, {});
  await send('POST', '/files/fileInfo', admin, { url: 'docs/a.txt' });
  await send('POST', '/files/directoryInfo', admin, { url: 'docs' });
  await send('GET', '/__admin/files?path=docs', ADMIN);
  await send('POST', '/files/copy', admin, { sourceUrls: ['docs/a.txt'], forces: [false], destinationUrl: 'copies' });
  await send('POST', '/files/move', admin, { sourceUrls: ['copies/a.txt'], forces: [false], destinationUrl: 'moved' });
  await send('POST', '/files/rename', admin, { items: [{ pathToRename: 'moved/a.txt', newFileName: 'b.txt' }] });
  await send('POST', '/files/delete', admin, { urls: ['moved/b.txt'], forced: [false] });
  await send('DELETE', '/files', admin, { urls: ['copies'], forced: [true] });

  // Transcoder: a conversion, whose job keeps the whole transcoder state as it runs; then settings of every kind and
  // a policy, kept by their own records.
  await send('POST', '/metadata/upload', admin, { name: 'u', default: true, url: 'https://up.example.com/' });
  const preset = { name: 'p', outputs: [{ resolution: '360', videoBitrate: '800k', audioBitrate: '96k' }] };
  await send('POST', '/metadata/preset', admin, preset);
  await send('POST', '/video/convert', admin, { url: 'https://src.example.com/in.mp4', preset: 'p', upload: true });
  await expect.poll(async () => (await send('GET', '/__admin/jobs', ADMIN)).jobs[0]!.finishedAt).toBeDefined();
  await send('POST', '/metadata/upload', admin, { name: 'u2', url: 'https://up.example.com/2' });
  await send('POST', '/metadata/webhook', admin, { name: 'w', default: true, url: 'https://hook.example.com/' });
  await send('POST', '/metadata/watermark', admin, {
    name: 'm',
    url: 'https://src.example.com/w.png',
    location: 'TOP_LEFT',
  });
  await send('POST', '/metadata/thumbnail', admin, { name: 't', random: true, count: 2 });
  await send('POST', '/metadata/preset', admin, { ...preset, name: 'p2' });
  await send('GET', '/__admin/transcoder/settings', ADMIN);
  await send('PATCH', '/__admin/transcoder/policy', ADMIN, { retryDelayMs: 7 });
  await send('GET', '/__admin/transcoder/policy', ADMIN);

  // The request inspector lives for the run only.
  const { requests } = await send('GET', '/__admin/requests', ADMIN);
  await send('GET', `/__admin/requests/${requests[0]!.id}`, ADMIN);
  await send('GET', '/__admin/requests/har?limit=5', ADMIN);
  // A replay is kept as the request it sends (a second row), not as the replay.
  await send('POST', '/object-storage/classes/Replayed', admin, { n: 1 });
  const created = await send('GET', '/__admin/requests?method=POST&path=/object-storage/classes/Replayed', ADMIN);
  await send('POST', `/__admin/requests/${created.requests[0]!.id}/replay`, ADMIN);
  const stream = await walk.engine.fetch(new Request(`${ORIGIN}/__admin/requests/stream`, { headers: ADMIN }));
  expect(stream.status).toBe(200);
  await stream.body?.cancel();
  walk.reached.add('GET /__admin/requests/stream');
  await send('DELETE', '/__admin/requests', ADMIN);

  // Last: a leaderboard removed from the running config, a user deleted.
  await send('DELETE', '/game/leaderboards/spare', admin);
  await send('DELETE', `/auth/users/${bob.userId}`, admin);
}

/** The default project's whole state, as `GET /__admin/state` exports it. */
const stateOf = async (engine: Engine) =>
  (await engine.fetch(new Request(`${ORIGIN}/__admin/state`, { headers: ADMIN }))).json();

/** A fetch capability that answers every outbound request (the transcoder's source, deliveries, webhooks) with a few bytes. */
const outbound = () => Promise.resolve(new Response('bytes'));

describe('durability declared by the routes', () => {
  it('replays every change from an in-memory journal to the same state, on the engine alone', async () => {
    const journal = new MemoryJournal();
    const engine = createEngine({ config, capabilities: { journal, fetch: outbound } });
    await engine.ready;
    const walk = new Walk(engine);
    await everyRoute(walk);

    const unreached = ROUTES.map(({ method, path }) => `${method} ${path}`).filter((r) => !walk.reached.has(r));
    expect(unreached, 'routes this walk sends no request to: add one to everyRoute').toEqual([]);
    expect(journal.contents.snapshot).toBeDefined(); // the state import
    // Each route that declares a change left records after it (the import, whole, is the snapshot).
    const recorded = new Set(
      (journal.contents.records as { method?: string; url?: string }[])
        .filter((record) => record.method)
        .map((record) => routeOf(record.method!, record.url!)),
    );
    const changing = ROUTES.filter(({ durability }) => durability.changes === 'state' && !durability.whole);
    expect(changing.map(({ method, path }) => `${method} ${path}`).filter((r) => !recorded.has(r))).toEqual([]);

    const before = await stateOf(engine);
    const restarted = createEngine({ config, capabilities: { journal: journal.copy(), fetch: outbound } });
    await restarted.ready;
    expect(await stateOf(restarted)).toEqual(before);
    const faults = await restarted.fetch(new Request(`${ORIGIN}/__admin/faults`, { headers: ADMIN }));
    expect(((await faults.json()) as Answer).faults).toEqual([]);
    // The users log in as before: hashes and digests came back from the journal, not from the passwords it left out.
    const login = await restarted.fetch(
      new Request(`${ORIGIN}/auth/login`, {
        method: 'POST',
        headers: { ...ids, ...CLIENT },
        body: new URLSearchParams({ username: 'gus', password: 'pw-gus' }),
      }),
    );
    expect(login.status).toBe(200);
    await Promise.all([engine.close(), restarted.close()]);
  });

  // A whole change hides the loss of any change before it (the journal then keeps only the state it leaves): each is
  // checked on its own here, undoing a change that a replay of the requests would keep.
  it.each([
    [
      "a named snapshot's restore",
      async (walk: Walk) => {
        await walk.send('PUT', '/__admin/snapshots/one-row', ADMIN);
        return () => walk.send('POST', '/__admin/snapshots/one-row/restore', ADMIN);
      },
    ],
    [
      'a state import',
      async (walk: Walk) => {
        const exported = await walk.send('GET', '/__admin/state', ADMIN);
        return () => walk.send('PUT', '/__admin/state', ADMIN, exported);
      },
    ],
  ])('keeps %s as the state it leaves, not as the request it was', async (_, saved) => {
    const journal = new MemoryJournal();
    const engine = createEngine({ config, capabilities: { journal } });
    await engine.ready;
    const walk = new Walk(engine);
    const master = bearer(await walk.send('POST', '/auth/login', ADMIN));
    await walk.send('POST', '/object-storage/classes/Kept', master, { n: 1 });
    const goBack = await saved(walk);
    await walk.send('POST', '/object-storage/classes/Kept', master, { n: 2 });
    await goBack();

    const before = await stateOf(engine);
    const restarted = createEngine({ config, capabilities: { journal: journal.copy() } });
    await restarted.ready;
    expect(await stateOf(restarted)).toEqual(before);
    const { results } = (await walk.send('POST', '/object-storage/classes/query/Kept', master, {})) as unknown as {
      results: { n: number }[];
    };
    expect(results.map(({ n }) => n)).toEqual([1]);
    await Promise.all([engine.close(), restarted.close()]);
  });

  it('refuses a route that declares nothing, naming it, and carries the declaration on the route', () => {
    const routes = createRoutes();
    routes.get('/declared', reads, (c) => c.json({}));
    routes.post(
      '/changed',
      changes({ bodyLimit: 'maxUploadBytes' }),
      (_c, next) => next(),
      (c) => c.json({}),
    );
    expect(declaredRoutes(routes).map(({ method, path, durability }) => [method, path, durability.changes])).toEqual([
      ['GET', '/declared', 'nothing'],
      ['POST', '/changed', 'state'],
    ]);
    routes.put('/forgotten', (c) => c.json({}));
    routes.delete(
      '/forgotten/too',
      (_c, next) => next(),
      (c) => c.json({}),
    );
    expect(() => declaredRoutes(routes)).toThrow(/^PUT \/forgotten, DELETE \/forgotten\/too: every route declares/);
  });
});
