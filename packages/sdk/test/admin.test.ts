// `@basekit/sdk/admin` against the reference server: every operation of the admin API through the typed client, each
// answer checked against the contract on the way, and its failures as the SDK's errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer as startServerOfItsOwn } from '../../../mock-server/test/support/server.js';
import { contractCheckingFetch } from '../../../test/fidelity/support/checking-fetch.js';
import { loadContract } from '../../../test/fidelity/support/contract.js';
import { VerificationError, createAdminClient, type AdminClient, type AdminClientOptions } from '../src/admin/index.js';
import {
  AbortError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  ServiceError,
  SessionExpiredError,
  ValidationError,
  createClient,
} from '../src/index.js';
import { HEADER_WORD, closedAddress, optionsFor, rejection, startTestServer, type TestServer } from './support.js';

const contract = loadContract();
const check = contractCheckingFetch(contract, contract.adminOperations);

/** The admin client of a server's (or a shared server's) project, its answers checked against the contract. */
const adminOf = (server: Pick<TestServer, 'url' | 'config'>, options: Partial<AdminClientOptions> = {}) =>
  createAdminClient({
    baseUrl: server.url,
    masterKey: server.config.masterKey,
    authenticationId: server.config.authenticationId,
    ...(HEADER_WORD && { headerWord: HEADER_WORD }),
    fetch: check.fetch,
    ...options,
  });

let server: TestServer;
let admin: AdminClient;
beforeAll(async () => {
  server = await startTestServer();
  admin = adminOf(server);
});
afterAll(() => server.close());

describe('the admin client', () => {
  it('answers the liveness check', async () => {
    expect(await admin.health()).toEqual({ status: 'ok' });
  });

  it('moves the clock: tokens expire by it', async () => {
    const client = createClient(optionsFor(server));
    await client.auth.register({ username: 'clocked', password: 'pw' });
    await client.auth.login('clocked', 'pw');
    const before = await admin.clock.now();
    const moved = await admin.clock.advance(server.config.accessTokenTtlSeconds ?? 7199);
    expect(moved.getTime() - before.getTime()).toBeGreaterThanOrEqual(
      (server.config.accessTokenTtlSeconds ?? 7199) * 1000,
    );
    expect((await admin.clock.read()).offsetSeconds).toBeGreaterThan(0);
    // The access token has expired: the SDK renews it with the refresh token, which a sign-out expires.
    expect((await client.auth.me()).username).toBe('clocked');
    expect(await admin.users.signOut((await client.auth.me()).userId)).toBe(1);
    await admin.clock.advance(server.config.accessTokenTtlSeconds ?? 7199);
    expect(await rejection(client.auth.me())).toBeInstanceOf(SessionExpiredError);
  });

  it('confirms users without their e-mail, reads the outbox, changes the config and resets', async () => {
    const config = await admin.config.update({ emailConfirmation: true });
    expect(config.emailConfirmation).toBe(true);
    expect((await admin.config.get()).emailConfirmation).toBe(true);
    const client = createClient(optionsFor(server));
    const { userId } = await client.auth.register({ username: 'una', password: 'pw', email: 'una@example.com' });
    const [mail] = (await admin.outbox()).filter((m) => m.to === 'una@example.com');
    expect(mail?.link).toContain('/auth/confirm/');
    expect(await admin.users.activate(userId)).toMatchObject({ userId, active: true });
    await client.auth.login('una', 'pw');

    await admin.reset();
    expect((await admin.config.get()).emailConfirmation).toBe(false);
    expect(await admin.outbox()).toEqual([]);
    expect(await rejection(admin.users.activate(userId))).toMatchObject({ status: 404, code: 214 });
  });

  it('exports a seeded state and brings it back', async () => {
    const client = createClient(optionsFor(server));
    await client.auth.register({ username: 'kept', password: 'pw' });
    await client.auth.login('kept', 'pw');
    await client.db.table('Note').create({ title: 'Hello' });
    const seeded = await admin.state.export();
    await admin.reset();
    expect(await admin.database.tables()).toEqual([]);
    await admin.state.import(seeded);
    expect(await admin.database.tables()).toEqual([
      { name: 'Note', rowCount: 1, columns: [{ name: 'title', type: 'String' }] },
    ]);
    await admin.leaderboards.reset('high-score');
    expect(await admin.transcoder.jobs()).toEqual([]);
    expect((await admin.transcoder.settings()).settings.preset).toEqual([]);
    expect(await admin.transcoder.updatePolicy({ deliveryAttempts: 1 })).toMatchObject({ deliveryAttempts: 1 });
    expect((await admin.transcoder.policy()).deliveryAttempts).toBe(1);
  });

  it('imports rows at once, describes a table, renames and drops a column, deletes the table', async () => {
    await admin.reset();
    const columns = [{ name: 'likes', type: 'Relation' as const, targetClass: 'Shelf' }];
    const rows = [
      { _id: 's1', n: 1 },
      { n: 2, likes: [] },
    ];
    expect(await admin.database.importRows('Shelf', rows, { columns })).toBe(2);
    const refused = await rejection(admin.database.importRows('Shelf', [{ n: 3 }, { n: 'four' }]));
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused).toMatchObject({ code: 53, message: expect.stringMatching(/^row 2: /) });
    expect(await admin.database.table('Shelf')).toEqual({
      name: 'Shelf',
      rowCount: 2,
      columns: [
        { name: 'likes', type: 'Relation', targetClass: 'Shelf', rowsWithValue: 0 },
        { name: 'n', type: 'Number', rowsWithValue: 2 },
      ],
      referencedBy: [{ table: 'Shelf', column: 'likes', type: 'Relation', rowsWithValue: 0 }],
    });
    expect((await admin.database.renameColumn('Shelf', 'n', 'count')).columns[1]).toMatchObject({ name: 'count' });
    expect((await admin.database.dropColumn('Shelf', 'count')).columns).toHaveLength(1);
    expect(await admin.database.deleteTable('Shelf')).toBe(2);
    expect(await rejection(admin.database.table('Shelf'))).toMatchObject({ status: 404, code: 50 });
  });

  it('inspects the answered requests: a filtered page, one in full, live, and empties the list', async () => {
    await admin.requests.clear();
    const client = createClient(optionsFor(server));
    await client.auth.register({ username: 'seen', password: 'pw' });
    const { requests, capacity } = await admin.requests.list({ area: 'users', status: '2xx' });
    expect(capacity).toBeGreaterThan(0);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /auth/users']);
    const { request, response } = await admin.requests.get(requests[0]!.id);
    expect(request.body).toMatchObject({ kind: 'json', json: { username: 'seen', password: '[masked]' } });
    expect(response.body).toMatchObject({ kind: 'json' });

    const stop = new AbortController();
    const live = (await admin.requests.follow({ signal: stop.signal }))[Symbol.asyncIterator]();
    await admin.clock.read();
    let next = await live.next();
    while (!next.done && next.value.path !== '/__admin/clock') next = await live.next();
    expect(next.value).toMatchObject({ method: 'GET', area: 'admin', caller: { kind: 'master' } });
    stop.abort();
    expect((await live.next()).done).toBe(true);
  });

  it('finds users whatever their accents, sets a password, lists the storage, exports HAR, sends a request again', async () => {
    const client = createClient(optionsFor(server));
    const { userId } = await client.auth.register({ username: 'zoë', password: 'pw' });
    const { users } = await admin.users.find({ q: 'zoe' });
    expect(users.map((user) => user.userId)).toEqual([userId]);
    await admin.users.setPassword(userId, 'n3w-s3cret');
    await client.auth.login('zoë', 'n3w-s3cret');
    expect((await admin.files.list()).entry).toMatchObject({ isDirectory: true });

    const { log } = await admin.requests.har({ area: 'users', limit: 1 });
    expect(log.entries.map((entry) => entry.request.method)).toEqual(['POST']);
    const [login] = (await admin.requests.list({ area: 'users', limit: 1 })).requests;
    const again = await admin.requests.replay(login!.id);
    expect(again).toMatchObject({ path: login!.path, status: 200, caller: { kind: 'anonymous' } });
  });

  it('manages the projects of a server with its admin key', async () => {
    const own = await startServerOfItsOwn(HEADER_WORD ? { headerWord: HEADER_WORD } : {});
    try {
      const serverAdmin = adminOf(own);
      const project = await serverAdmin.projects.create({ emailConfirmation: true });
      expect(project.config.emailConfirmation).toBe(true);
      expect((await serverAdmin.projects.list()).map((p) => p.id)).toEqual([own.config.authenticationId, project.id]);
      expect((await serverAdmin.projects.update(project.id, { inspectorLimit: 0 })).config.inspectorLimit).toBe(0);
      expect((await serverAdmin.projects.get(project.id)).config.inspectorLimit).toBe(0);

      // The project's own admin client, by its master key.
      const projectAdmin = adminOf({ url: own.url, config: project.config });
      await projectAdmin.config.update({ accessTokenTtlSeconds: 60 });
      const state = await serverAdmin.projects.exportState(project.id);
      await serverAdmin.projects.reset(project.id);
      expect((await projectAdmin.config.get()).accessTokenTtlSeconds).not.toBe(60);
      await serverAdmin.projects.importState(project.id, state);
      await serverAdmin.projects.delete(project.id);
      expect(await rejection(serverAdmin.projects.get(project.id))).toMatchObject({ status: 404, code: 160 });
      // Only the server's admin key lists projects.
      expect(await rejection(projectAdmin.projects.list())).toBeInstanceOf(ForbiddenError);
    } finally {
      await own.close();
    }
  });
});

describe('faults, snapshots and verification through the admin client', () => {
  it('sets faults that the SDK then meets, lists what is left of them, removes them', async () => {
    const client = createClient(optionsFor(server));
    await client.auth.register({ username: 'faulted', password: 'pw' });
    const fault = await admin.faults.add({ method: 'post', path: '/auth/login', status: 503, times: 1 });
    expect(fault).toMatchObject({ method: 'POST', remaining: 1, applied: 0 });
    expect(await rejection(client.auth.login('faulted', 'pw'))).toMatchObject({ status: 503, code: 3 });
    expect(await admin.faults.list()).toMatchObject([{ id: fault.id, remaining: 0, applied: 1 }]);
    await client.auth.login('faulted', 'pw');
    await admin.faults.remove(fault.id);
    expect(await rejection(admin.faults.remove(fault.id))).toMatchObject({ status: 404, code: 41 });
    await admin.faults.add({ path: '/auth/users/me', network: 'reset' });
    expect(await rejection(client.auth.me())).toBeInstanceOf(NetworkError);
    await admin.faults.clear();
    expect(await admin.faults.list()).toEqual([]);
  });

  it('saves the project and brings it back exactly', async () => {
    const before = await admin.state.export();
    expect(await admin.snapshots.save('before')).toMatchObject({ name: 'before', restores: 0 });
    const client = createClient(optionsFor(server));
    await client.auth.register({ username: 'ephemeral', password: 'pw' });
    expect(await admin.state.export()).not.toEqual(before);
    await admin.snapshots.restore('before');
    expect(await admin.state.export()).toEqual(before);
    expect(await admin.snapshots.list()).toMatchObject([{ name: 'before', restores: 1 }]);
    await admin.snapshots.delete('before');
    expect(await rejection(admin.snapshots.restore('before'))).toMatchObject({ status: 404, code: 43 });
  });

  it('asserts the requests an app made, and lists what did arrive when they are not', async () => {
    const client = createClient(optionsFor(server));
    await client.auth.register({ username: 'verified', password: 'pw' });
    await admin.requests.clear();
    await client.auth.login('verified', 'pw');
    await client.db.table('Note').create({ title: 'a' });
    await client.db.table('Note').create({ title: 'b' });
    const created = await admin.requests.expect({
      method: 'POST',
      path: '/object-storage/classes/{tableName}',
      times: 2,
    });
    expect(created.map((r) => r.status)).toEqual([201, 201]);
    const error = await rejection(
      admin.requests.expect({ method: 'PUT', path: '/object-storage/classes/{tableName}' }),
    );
    expect(error).toBeInstanceOf(VerificationError);
    expect((error as VerificationError).message).toBe(
      [
        'expected 1 request PUT /object-storage/classes/{tableName}; the project answered 0',
        'the closest of the other requests it answered (of its last 3):',
        '  POST /object-storage/classes/Note → 201',
        '  POST /object-storage/classes/Note → 201',
        '  POST /auth/login → 200',
      ].join('\n'),
    );
  });
});

describe("the admin client's errors", () => {
  it("are the SDK's, named after the operation", async () => {
    const wrongKey = await rejection(adminOf(server, { masterKey: 'not-the-key' }).config.get());
    expect(wrongKey).toBeInstanceOf(ForbiddenError);
    expect(wrongKey).toMatchObject({ status: 403, code: 119, operation: 'GET /__admin/config' });
    const invalid = await rejection(admin.clock.advance(-1));
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ code: 142, operation: 'POST /__admin/clock' });
    const missing = await rejection(admin.users.signOut('nobody'));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toBeInstanceOf(ServiceError);
    expect(missing).toMatchObject({ code: 214, operation: 'POST /__admin/users/{userId}/sign-out' });
  });

  it('tell a network failure and an abort apart from an answer', async () => {
    const offline = createAdminClient({ baseUrl: await closedAddress(), masterKey: 'k' });
    expect(await rejection(offline.reset())).toBeInstanceOf(NetworkError);
    expect(await rejection(admin.outbox({ signal: AbortSignal.abort() }))).toBeInstanceOf(AbortError);
  });
});

it('called every operation of the admin API, each answer as the contract describes', () => {
  expect(contract.adminOperations.map((op) => op.id).filter((id) => !check.seen.has(id))).toEqual([]);
  expect(check.violations).toEqual([]);
});
