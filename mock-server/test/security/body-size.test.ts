// One size limit for the JSON (and form) bodies of every area: past it the answer is 413 code 5 and nothing changes,
// whether the body declares its length or streams without one.
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';

const LIMIT = 4096;
let server: TestServer;
let user: TestUser;

beforeAll(async () => {
  server = await startTestServer({ maxJsonBodyBytes: LIMIT });
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  user = await createUser(server, 'sender');
});

/** A JSON object of exactly `size` bytes: `{"<field>":"xxx…"}`. */
function objectOfSize(size: number, field: string, extra: Record<string, unknown> = {}): string {
  const base = JSON.stringify({ ...extra, [field]: '' });
  return `${base.slice(0, -2)}${'x'.repeat(size - base.length)}"}`;
}

/** Each area's JSON operation: path, headers, and a valid body of `size` bytes. */
const operations: [string, string, () => Record<string, string>, (size: number) => string][] = [
  [
    'database: create a row',
    '/object-storage/classes/Note',
    () => ({ 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...user.auth }),
    (size) => objectOfSize(size, 'text'),
  ],
  [
    'database: query',
    '/object-storage/classes/query/Note',
    () => ({ 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...user.auth }),
    (size) => objectOfSize(size, 'text'),
  ],
  [
    'users: register',
    '/auth/users',
    () => ({ 'X-Service-Authentication-Id': server.config.authenticationId }),
    (size) => objectOfSize(size, 'password', { username: 'new-user' }),
  ],
  [
    'files: create a folder',
    '/directories',
    () => ({ 'X-Service-Storage-Id': server.config.storageId, ...user.auth }),
    (size) => objectOfSize(size, 'path'),
  ],
  [
    'leaderboards: post a score',
    '/game/events',
    () => ({ 'X-Service-Game-Id': server.config.gameId, ...user.auth }),
    (size) => objectOfSize(size, 'eventName'),
  ],
  [
    'transcoder: save a setting',
    '/metadata/webhook',
    () => user.auth,
    (size) => objectOfSize(size, 'url', { name: 'w' }),
  ],
];

const post = (path: string, headers: Record<string, string>, body: BodyInit) =>
  server.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit);

/** The body as a stream of 1 KiB chunks, so that no Content-Length is sent. */
function streamed(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + 1024));
      offset += 1024;
    },
  });
}

async function expectRefused(res: Response): Promise<void> {
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ code: 5, error: `request body is larger than ${LIMIT} bytes (maxJsonBodyBytes)` });
}

describe('JSON bodies past maxJsonBodyBytes', () => {
  it.each(operations)('%s: 413 code 5 with a Content-Length, and nothing changes', async (_, path, headers, body) => {
    const before = await (await server.admin('/__admin/state')).json();
    await expectRefused(await post(path, headers(), body(LIMIT + 1)));
    expect(await (await server.admin('/__admin/state')).json()).toEqual(before);
  });

  it.each(operations)('%s: 413 code 5 while streaming without a Content-Length', async (_, path, headers, body) => {
    await expectRefused(await post(path, headers(), streamed(body(LIMIT * 4))));
  });

  it.each(operations)(
    '%s: a body of exactly the limit is read (not refused for its size)',
    async (_, path, headers, body) => {
      const res = await post(path, headers(), body(LIMIT));
      expect(res.status).not.toBe(413);
    },
  );

  it('a request that passes on more than its Content-Length declares (a mocked one) is still held to the limit', async () => {
    const before = await (await server.admin('/__admin/state')).json();
    const request = new Request(`${server.url}/object-storage/classes/Note`, {
      method: 'POST',
      headers: {
        'X-Service-Object-Storage-Id': server.config.objectStorageId,
        'Content-Type': 'application/json',
        'Content-Length': '20',
        ...user.auth,
      },
      body: objectOfSize(LIMIT * 2, 'text'),
    });
    expect(request.headers.get('content-length')).toBe('20');
    await expectRefused(await server.engine.fetch(request));
    expect(await (await server.admin('/__admin/state')).json()).toEqual(before);
  });

  it('a body that ends before its Content-Length: 400, and nothing changes', async () => {
    const before = await (await server.admin('/__admin/state')).json();
    const { hostname, port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /object-storage/classes/Note HTTP/1.1\r\nHost: ${hostname}\r\nX-Service-Object-Storage-Id: ${server.config.objectStorageId}\r\n` +
            `Authorization: ${user.auth['Authorization']}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"text":"cut`,
        );
        socket.end();
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(await (await server.admin('/__admin/state')).json()).toEqual(before);
  });

  it('a login form past the limit: 413 code 5', async () => {
    const form = new URLSearchParams({ username: user.username, password: 'x'.repeat(LIMIT) });
    const res = await server.request('/auth/login', {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': server.config.authenticationId,
        'X-Service-Authentication-Key': server.config.clientKey,
      },
      body: form,
    });
    await expectRefused(res);
  });
});

describe('the default limit (1 MiB)', () => {
  it('refuses a 2 MiB row (the issue stored 300 MB ones) and accepts a small one', async () => {
    const open = await startTestServer();
    try {
      const alice = await createUser(open, 'alice');
      const headers = {
        'X-Service-Object-Storage-Id': open.config.objectStorageId,
        'Content-Type': 'application/json',
        ...alice.auth,
      };
      const big = await open.request('/object-storage/classes/Note', {
        method: 'POST',
        headers,
        body: objectOfSize(2 * 1024 * 1024, 'text'),
      });
      expect(big.status).toBe(413);
      expect(((await big.json()) as { code: number }).code).toBe(5);
      expect(
        (await open.request('/object-storage/classes/Note', { method: 'POST', headers, body: '{"text":"hi"}' })).status,
      ).toBe(201);
    } finally {
      await open.close();
    }
  });
});
