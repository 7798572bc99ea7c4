// The SDK's retry, renewal and timeout handling against faults the reference server injects: a 503 on
// login, on a renewal and on a call, a dropped connection during an upload, a slow query past the client's timeout.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  NetworkError,
  ServerError,
  TimeoutError,
  createClient,
  memoryTokenStore,
  type Client,
  type FileRecord,
} from '../src/index.js';
import {
  advanceClock,
  masterClient,
  optionsFor,
  rejection,
  startTestServer,
  userClient,
  type TestServer,
} from './support.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(() => server.admin('/__admin/faults', { method: 'DELETE' }));

async function fault(body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await server.admin('/__admin/faults', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`fault: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string };
}

async function applied(): Promise<number[]> {
  const { faults } = (await (await server.admin('/__admin/faults')).json()) as { faults: { applied: number }[] };
  return faults.map((f) => f.applied);
}

describe('login', () => {
  it('a 503 rejects with ServerError and leaves the client signed out; the next try signs in', async () => {
    const client = await userClient(server);
    await client.auth.logout();
    const username = (client as Client & { username: string }).username;
    await fault({ method: 'POST', path: '/auth/login', status: 503, times: 1 });
    const error = await rejection(client.auth.login(username, `pw-${username}`));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, code: 3 });
    expect(await client.core.session.current()).toBeUndefined();
    await client.auth.login(username, `pw-${username}`);
    expect(await client.core.session.current()).toBeDefined();
  });
});

describe('renewal', () => {
  it('a 503 on the renewal keeps the session (the refresh token is still good): the next call renews', async () => {
    const client = await userClient(server);
    const changes: string[] = [];
    client.core.session.onChange((change) => changes.push(change));
    await advanceClock(server, 7200);
    await fault({ method: 'POST', path: '/auth/login', status: 503, times: 1 });
    expect(await rejection(client.auth.me())).toBeInstanceOf(ServerError);
    expect(changes).toEqual([]);
    expect(await client.core.session.current()).toBeDefined();
    expect((await client.auth.me()).username).toBe((client as Client & { username: string }).username);
    expect(changes).toEqual(['refreshed']);
  });

  it('an injected 401 on a call is renewed once and replayed', async () => {
    const client = await userClient(server);
    const notes = client.db.table('Note');
    const { _id } = await notes.create({ title: 'x' });
    await fault({ method: 'GET', path: '/object-storage/classes/{tableName}/{objectId}', status: 401, times: 1 });
    expect(await notes.get(_id)).toMatchObject({ _id, title: 'x' });
    expect(await applied()).toEqual([1]);
  });

  it('a 503 on a call is the ServerError of that operation, not a renewal', async () => {
    const client = await userClient(server);
    await fault({ method: 'POST', path: '/object-storage/classes/{tableName}', status: 503 });
    const error = await rejection(client.db.table('Note').create({ title: 'x' }));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).operation).toBe('POST /object-storage/classes/{tableName}');
  });
});

describe('upload', () => {
  const list = async (folder: string): Promise<FileRecord[]> =>
    (await masterClient(server)).files.list(`/${folder}`).catch(() => []);

  it.each([
    ['plain', undefined],
    ['with progress', () => undefined],
  ])(
    'a dropped connection rejects with NetworkError (%s), stores nothing, and a second try stores the file',
    async (_, onProgress) => {
      const client = await userClient(server);
      const folder = `reset-${onProgress ? 'progress' : 'plain'}`;
      await fault({ method: 'POST', path: '/files', network: 'reset', times: 1 });
      const item = { file: new TextEncoder().encode('hello'), name: 'a.txt', path: folder };
      const error = await rejection(client.files.upload([item], { ...(onProgress && { onProgress }) }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(await list(folder)).toEqual([]);
      const [saved] = await client.files.upload([item]);
      expect(saved).toContain('a.txt');
    },
  );
});

describe('timeoutMs', () => {
  it('gives up a query slower than the timeout with TimeoutError (an AbortError); a quick one is unaffected', async () => {
    // Signed in by a client without a timeout (a loaded machine may be slow to register), the session shared.
    const tokenStore = memoryTokenStore();
    await userClient(server, { tokenStore });
    const client = createClient(optionsFor(server, { tokenStore, timeoutMs: 500 }));
    const scores = client.db.table('Score');
    await scores.create({ score: 1 });
    await fault({ method: 'POST', path: '/object-storage/classes/query/{tableName}', delayMs: 3000, times: 1 });
    const started = performance.now();
    const error = await rejection(scores.query().find());
    expect(performance.now() - started).toBeLessThan(2500);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as Error).message).toBe('POST /object-storage/classes/query/{tableName} timed out');
    expect(await scores.query().find()).toHaveLength(1);
  });

  it("gives up in time, and obeys the caller's abort, while garbage is collected during the call", async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const collecting = setInterval(collectGarbage, 50);
    try {
      const tokenStore = memoryTokenStore();
      const client = await userClient(server, { tokenStore });
      const timed = createClient(optionsFor(server, { tokenStore, timeoutMs: 500 }));
      await fault({ path: '/auth/users/me', delayMs: 3000, times: 2 });
      let started = performance.now();
      expect(await rejection(timed.auth.me())).toBeInstanceOf(TimeoutError);
      expect(performance.now() - started).toBeLessThan(2500);
      const caller = new AbortController();
      setTimeout(() => caller.abort(), 100);
      started = performance.now();
      const aborted = await rejection(client.auth.me({ signal: caller.signal }));
      expect(aborted).toBeInstanceOf(AbortError);
      expect(aborted).not.toBeInstanceOf(TimeoutError);
      expect(performance.now() - started).toBeLessThan(2500);
    } finally {
      clearInterval(collecting);
    }
  });

  it('an AbortSignal.timeout of one call is a TimeoutError too', async () => {
    const client = await userClient(server);
    await fault({ path: '/auth/users/me', delayMs: 2000, times: 1 });
    expect(await rejection(client.auth.me({ signal: AbortSignal.timeout(200) }))).toBeInstanceOf(TimeoutError);
  });
});
