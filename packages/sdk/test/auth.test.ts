import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AbortError,
  ConflictError,
  ForbiddenError,
  NetworkError,
  SessionExpiredError,
  UnauthorizedError,
  createClient,
  isServiceError,
  localStorageTokenStore,
  memoryTokenStore,
  type SessionChange,
} from '../src/index.js';
import {
  advanceClock,
  closedAddress,
  masterClient,
  optionsFor,
  recordingFetch,
  rejection,
  serviceHeader,
  startTestServer,
  userClient,
  type TestServer,
} from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ACCESS_TTL = 7199;

describe('sign in and out', () => {
  it('registers, logs in, keeps the session and sends it', async () => {
    const client = await userClient(server, {}, { firstName: 'Ann' });
    const session = await client.auth.session();
    expect(session).toMatchObject({ scope: 'client', tokenType: 'Bearer' });
    expect(session?.refreshToken).toBeTruthy();
    expect(session!.expiresAt).toBeGreaterThan(Date.now() + (ACCESS_TTL - 60) * 1000);
    const me = await client.auth.me();
    expect(me).toMatchObject({ username: client.username, firstName: 'Ann' });
  });

  it('throws typed errors carrying status, code, message and operation', async () => {
    const client = createClient(optionsFor(server));
    const wrong = await rejection(client.auth.login('nobody', 'wrong'));
    expect(wrong).toBeInstanceOf(UnauthorizedError);
    expect(wrong).toMatchObject({ status: 401, code: 212, operation: 'POST /auth/login' });
    expect(isServiceError(wrong, 401)).toBe(true);
    expect(await client.auth.session()).toBeUndefined();

    const { username } = await userClient(server);
    const taken = await rejection(client.auth.register({ username, password: 'x' }));
    expect(taken).toBeInstanceOf(ConflictError);
    expect((taken as ConflictError).message).toContain(username);
  });

  it('logs in as master without a refresh token; master-only calls refuse a user', async () => {
    const admin = await masterClient(server);
    expect(await admin.auth.session()).toMatchObject({ scope: 'master' });
    expect((await admin.auth.session())?.refreshToken).toBeUndefined();
    const user = await userClient(server);
    const list = await admin.auth.list({ page: 0, pageSize: 100 });
    expect(list.users.map((u) => u.username)).toContain(user.username);
    expect(await rejection(user.auth.list())).toBeInstanceOf(ForbiddenError);
  });

  it('logs out: the service expires the refresh token and the session is forgotten', async () => {
    const client = await userClient(server);
    const { refreshToken } = (await client.auth.session())!;
    const changes: SessionChange[] = [];
    client.auth.onSessionChange((change) => changes.push(change));
    await client.auth.logout();
    expect(await client.auth.session()).toBeUndefined();
    expect(changes).toEqual(['signedOut']);

    const renewal = new FormData();
    renewal.set('refresh_token', refreshToken!);
    const { authenticationId, clientKey } = server.config;
    const res = await server.request('/auth/login', {
      method: 'POST',
      headers: {
        [serviceHeader('Authentication-Id')]: authenticationId,
        [serviceHeader('Authentication-Key')]: clientKey,
        [serviceHeader('Authentication-Refresh')]: '1',
      },
      body: renewal,
    });
    expect(res.status).toBe(401);
  });

  it('keeps the session in localStorage, where a new client finds it', async () => {
    const entries = new Map<string, string>();
    const storage = {
      getItem: (key: string) => entries.get(key) ?? null,
      setItem: (key: string, value: string) => void entries.set(key, value),
      removeItem: (key: string) => void entries.delete(key),
    } as Storage;
    const client = await userClient(server, { tokenStore: localStorageTokenStore('app.session', storage) });
    expect(JSON.parse(entries.get('app.session')!)).toMatchObject({ scope: 'client' });
    const later = createClient(optionsFor(server, { tokenStore: localStorageTokenStore('app.session', storage) }));
    expect((await later.auth.me()).username).toBe(client.username);
  });
});

describe('registration confirmed by e-mail', () => {
  it('keeps a new user out until the link of the e-mail is opened', async () => {
    const confirming = await startTestServer({ emailConfirmation: true });
    try {
      const client = createClient(optionsFor(confirming));
      const user = await client.auth.register({ username: 'eve', password: 'pw-eve', email: 'eve@example.com' });
      expect(user.active).toBe(false);
      expect(await rejection(client.auth.login('eve', 'pw-eve'))).toMatchObject({ status: 401, code: 215 });
      const { messages } = (await (await confirming.admin('/__admin/outbox')).json()) as {
        messages: { to: string; link: string }[];
      };
      const link = messages.find((m) => m.to === 'eve@example.com')!.link;
      expect((await client.auth.confirmRegistration(link.split('/').pop()!)).active).toBe(true);
      await client.auth.login('eve', 'pw-eve');
      expect((await client.auth.me()).username).toBe('eve');
    } finally {
      await confirming.close();
    }
  });
});

describe('token refresh', () => {
  it('renews before the access token expires, without a 401', async () => {
    const traffic = recordingFetch();
    const tokenStore = memoryTokenStore();
    const client = await userClient(server, { fetch: traffic.fetch, tokenStore });
    const session = (await tokenStore.get())!;
    await tokenStore.set({ ...session, expiresAt: Date.now() + 5_000 });
    await client.auth.me();
    expect(traffic.renewals()).toBe(1);
    expect(traffic.exchanges.filter((e) => e.status === 401)).toEqual([]);
    expect((await tokenStore.get())!.accessToken).not.toBe(session.accessToken);
  });

  it('after 401s, concurrent requests share one renewal and are replayed with their bodies', async () => {
    const traffic = recordingFetch();
    const client = await userClient(server, { fetch: traffic.fetch });
    const changes: SessionChange[] = [];
    client.auth.onSessionChange((change) => changes.push(change));
    await advanceClock(server, ACCESS_TTL + 1);

    const [updated, ...mes] = await Promise.all([
      client.auth.updateMe({ firstName: 'Replayed' }),
      client.auth.me(),
      client.auth.me(),
      client.auth.me(),
    ]);
    expect(updated.firstName).toBe('Replayed');
    for (const me of mes) expect(me.username).toBe(client.username);
    expect(traffic.renewals()).toBe(1);
    expect(traffic.exchanges.filter((e) => e.status === 401)).toHaveLength(4);
    expect(changes).toEqual(['refreshed']);
    expect((await client.auth.me()).firstName).toBe('Replayed');
  });

  it('a refused renewal clears the session and raises SessionExpiredError once', async () => {
    const client = await userClient(server);
    const { refreshToken } = (await client.auth.session())!;
    const { authenticationId, clientKey } = server.config;
    await server.request(`/auth/logout?refresh-token=${refreshToken}`, {
      method: 'DELETE',
      headers: {
        [serviceHeader('Authentication-Id')]: authenticationId,
        [serviceHeader('Authentication-Key')]: clientKey,
      },
    });
    const changes: SessionChange[] = [];
    client.auth.onSessionChange((change) => changes.push(change));
    await advanceClock(server, ACCESS_TTL + 1);

    const errors = await Promise.all([
      rejection(client.auth.me()),
      rejection(client.auth.me()),
      rejection(client.auth.updateMe({ lastName: 'X' })),
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(SessionExpiredError);
    expect(new Set(errors).size).toBe(1);
    expect(await client.auth.session()).toBeUndefined();
    expect(changes).toEqual(['expired']);
  });

  it('expires when the refresh token outlives its lifetime on the server clock', async () => {
    const client = await userClient(server);
    await advanceClock(server, 31 * 24 * 3600);
    expect(await rejection(client.auth.me())).toBeInstanceOf(SessionExpiredError);
  });
});

describe('transport', () => {
  it('aborts through the AbortSignal', async () => {
    const client = await userClient(server);
    const error = await rejection(client.auth.me({ signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(AbortError);
    expect(isServiceError(error)).toBe(false);
  });

  it('tells network failures from service errors', async () => {
    const client = createClient(optionsFor(server, { baseUrl: await closedAddress() }));
    const error = await rejection(client.auth.login('a', 'b'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(isServiceError(error)).toBe(false);
  });

  it('uses globalThis.fetch as it is at call time', async () => {
    const client = createClient(optionsFor(server));
    const original = globalThis.fetch;
    const seen: string[] = [];
    globalThis.fetch = (input, init) => {
      seen.push(new Request(input, init).url);
      return original(input, init);
    };
    try {
      await rejection(client.auth.login('nobody', 'wrong'));
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([`${server.url}/auth/login`]);
  });
});
