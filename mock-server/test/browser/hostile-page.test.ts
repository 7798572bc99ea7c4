// What a page of another site, open in the developer's browser, can send to a server on their machine (docs/reliability.md#a-hostile-page-dns-rebinding), as
// HTTP requests: the admin API answers no other origin and no unknown Host name (DNS rebinding), and the built-in
// master key, which is public, is refused from pages of other sites. The same in a real Chromium:
// hostile-page.e2e.test.ts.
import { createHmac } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startServer } from '../../src/server.js';
import { machineNames } from '../../src/tls/addresses.js';
import { database } from '../../../packages/engine/test/database/support.js';
import { http2Session, overHttp2 } from '../https/support.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';
import { rawRequest } from './support.js';

const KEY = { 'X-Service-Authentication-Key': 'dev-master-key' };
const EVIL = 'https://evil.example';

let server: TestServer;
let port: string;
beforeAll(async () => {
  server = await startTestServer();
  port = new URL(server.url).port;
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** An admin call with the master key, under `host` (the `Host` header a browser sends for the page's name). */
const adminUnder = (host: string, path = '/__admin/config', init: { method?: string; body?: string } = {}) =>
  rawRequest(`${server.url}${path}`, { ...init, path, headers: { ...KEY, Host: host } });

const masterLogin = (headers: Record<string, string>) =>
  server.request('/auth/login', {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': 'dev-auth-id', ...KEY, ...headers },
  });

/** The database as master. */
const master = async () => database(server, await masterAuth(server));

async function rowCount(): Promise<number> {
  return (await (await master()).query('Note', {}, 'count=1&limit=0')).body.count ?? 0;
}

async function addRow(): Promise<void> {
  expect((await (await master()).create('Note', { text: 'kept' })).status).toBe(201);
}

describe('the admin API answers no other origin', () => {
  it('answers a preflight from another origin with no CORS header, for every admin path', async () => {
    for (const path of ['/__admin/state', '/__admin/reset', '/__admin/projects', '/__admin/requests/stream']) {
      const res = await server.request(path, {
        method: 'OPTIONS',
        headers: {
          Origin: EVIL,
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'x-service-authentication-key',
        },
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(
        [...res.headers.keys()].filter((name) => name.startsWith('access-control-')),
        path,
      ).toEqual([]);
    }
  });

  it('sends no CORS header with an admin answer (before: Access-Control-Allow-Origin: * on every one)', async () => {
    const res = await server.admin('/__admin/state', { headers: { Origin: 'http://127.0.0.1:5173' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    // The service's own API keeps answering browser apps of every origin.
    const api = await server.request('/auth/users/me', { headers: { Origin: EVIL } });
    expect(api.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('changes nothing for simple requests a page can send without a preflight (form posts, text/plain, the key in the body)', async () => {
    await addRow();
    const simple = [
      { 'Content-Type': 'text/plain', body: 'X-Service-Authentication-Key: dev-master-key' },
      { 'Content-Type': 'application/x-www-form-urlencoded', body: 'X-Service-Authentication-Key=dev-master-key' },
      {
        'Content-Type': 'multipart/form-data; boundary=b',
        body: '--b\r\nContent-Disposition: form-data; name="k"\r\n\r\nv\r\n--b--\r\n',
      },
    ];
    for (const { body, ...headers } of simple) {
      for (const path of ['/__admin/reset', '/__admin/reset?X-Service-Authentication-Key=dev-master-key']) {
        const res = await server.request(path, { method: 'POST', headers: { ...headers, Origin: EVIL }, body });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ code: ErrorCode.OPERATION_FORBIDDEN });
      }
    }
    expect(await rowCount()).toBe(1);
  });
});

describe('admin calls under a Host name the server does not know (DNS rebinding)', () => {
  it('refuses them with 403 code 20, also on the projects API and on paths written otherwise (before: 200)', async () => {
    await addRow();
    for (const host of [
      'rebind.example',
      `rebind.example:${port}`,
      'localhost.evil.example',
      '127.0.0.1.evil.example',
    ]) {
      for (const [method, path] of [
        ['GET', '/__admin/state'],
        ['POST', '/__admin/reset'],
        ['GET', '/__admin/projects'],
        ['GET', '//__admin/state'],
        ['GET', '/%5F%5Fadmin/state'],
      ] as const) {
        const res = await adminUnder(host, path, { method });
        expect(res.status, `${host} ${method} ${path}`).toBe(403);
        expect(JSON.parse(res.body)).toEqual({
          code: ErrorCode.HOST_NOT_ALLOWED,
          error: expect.stringContaining('allowedHosts'),
        });
      }
    }
    // A request target in absolute form names another host than its Host header: both must be known.
    const absolute = await rawRequest(server.url, {
      path: `${server.url}/__admin/state`,
      headers: { ...KEY, Host: 'rebind.example' },
    });
    expect(absolute.status).toBe(403);
    expect(await rowCount()).toBe(1);
  });

  it("answers them under localhost, any IP address, the machine's names and the server's publicUrl", async () => {
    for (const host of [
      ...machineNames().map((name) => `${name}:${port}`), // a phone reaches ann-laptop.local
      `localhost:${port}`,
      'app.localhost',
      `127.0.0.1:${port}`,
      '127.8.9.1',
      `[::1]:${port}`,
      '192.168.1.20',
      '203.0.113.7:80',
      'LOCALHOST.',
    ]) {
      const res = await adminUnder(host);
      expect(res.status, host).toBe(200);
    }
    expect((await adminUnder('basekit.example.com')).status).toBe(403);
    const patch = await server.admin('/__admin/config', {
      method: 'PATCH',
      body: JSON.stringify({ publicUrl: 'https://basekit.example.com/base' }),
    });
    expect(patch.status).toBe(200);
    expect((await adminUnder('basekit.example.com')).status).toBe(200);
  });

  it('answers them under the names of allowedHosts, a leading dot standing for the names below it', async () => {
    const patch = await server.admin('/__admin/config', {
      method: 'PATCH',
      body: JSON.stringify({ allowedHosts: ['basekit', '.ci.example'] }),
    });
    expect(patch.status).toBe(200);
    for (const host of ['basekit:3000', 'ci.example', 'runner-7.ci.example'])
      expect((await adminUnder(host)).status, host).toBe(200);
    for (const host of ['basekit.evil', 'evilci.example']) expect((await adminUnder(host)).status, host).toBe(403);
  });

  it('checks the :authority of HTTP/2 requests over HTTPS as it does the Host header', async () => {
    const tlsDir = join(await mkdtemp(join(tmpdir(), 'rebinding-https-')), 'tls');
    const secure = await startServer({ port: 0, httpsPort: 0, tlsDir });
    const h2 = await http2Session(secure.httpsUrl!, await readFile(secure.certificate!.file, 'utf8'));
    try {
      const { host } = new URL(secure.httpsUrl!);
      const overH2 = (headers: Record<string, string>) =>
        overHttp2(h2, '/__admin/config', { headers: { ...KEY, ...headers } });
      expect((await overH2({ ':authority': host })).status).toBe(200);
      for (const headers of [
        { ':authority': 'rebind.example' } as Record<string, string>,
        { ':authority': `rebind.example:${new URL(secure.httpsUrl!).port}` },
        { ':authority': host, host: 'rebind.example' }, // both must be known, as for a target in absolute form
      ]) {
        const res = await overH2(headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(JSON.parse(res.body.toString())).toMatchObject({ code: ErrorCode.HOST_NOT_ALLOWED });
      }
    } finally {
      h2.close();
      await secure.close();
      await rm(dirname(tlsDir), { recursive: true, force: true });
    }
  });

  it('replays at start-up the admin calls a name let in that the config no longer holds', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rebinding-replay-'));
    try {
      const first = await startServer({ port: 0, dataDir, config: { allowedHosts: ['basekit'] } });
      const moved = await rawRequest(`${first.url}/__admin/clock`, {
        method: 'POST',
        path: '/__admin/clock',
        headers: { ...KEY, Host: 'basekit', 'Content-Type': 'application/json' },
        body: '{"advanceSeconds": 60}',
      });
      expect(moved.status).toBe(200);
      // A second server on the folder of one that never stopped (a crash), its config without the name.
      const second = await startServer({ port: 0, dataDir });
      const clock = await fetch(`${second.url}/__admin/clock`, { headers: KEY });
      expect(((await clock.json()) as { offsetSeconds: number }).offsetSeconds).toBeGreaterThanOrEqual(60);
      await second.close();
      await first.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('leaves the service API under any name (its clients call it by whatever name reaches it)', async () => {
    const res = await rawRequest(`${server.url}/__health`, { headers: { Host: 'rebind.example' } });
    expect(res.status).toBe(200);
    const login = await rawRequest(`${server.url}/auth/login`, {
      method: 'POST',
      headers: {
        Host: 'api.example',
        'X-Service-Authentication-Id': 'dev-auth-id',
        'X-Service-Authentication-Key': 'dev-client-key',
      },
    });
    expect(login.status).toBe(401); // a user login without credentials: the service answered
  });
});

describe('the built-in master key from a page of another site', () => {
  it('refuses a master login with it from another site with 417 code 21, readable by the page (before: a master token)', async () => {
    for (const origin of [EVIL, 'http://203.0.113.9:8080', 'null', 'http://rebind.example:3000']) {
      const res = await masterLogin({ Origin: origin });
      expect(res.status, origin).toBe(417);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toMatchObject({ code: ErrorCode.BUILT_IN_KEY_REFUSED });
    }
  });

  it('takes it from pages of this server, this machine, its local network and allowedHosts, and from clients that are no page', async () => {
    const own = new URL(server.url).origin;
    for (const origin of [
      own,
      'http://localhost:5173',
      'http://app.localhost',
      'http://192.168.1.5:8080',
      'http://10.0.0.2',
      'http://[::1]:4000',
    ]) {
      expect((await masterLogin({ Origin: origin })).status, origin).toBe(200);
    }
    expect((await masterLogin({})).status).toBe(200);
    await server.admin('/__admin/config', {
      method: 'PATCH',
      body: JSON.stringify({ allowedHosts: ['.apps.example'] }),
    });
    expect((await masterLogin({ Origin: 'https://preview.apps.example' })).status).toBe(200);
  });

  it("leaves a master key of the project's own to pages of any site (only the built-in one is public)", async () => {
    const own = await startTestServer({ masterKey: 'own-master-key' });
    try {
      const res = await own.request('/auth/login', {
        method: 'POST',
        headers: {
          'X-Service-Authentication-Id': 'dev-auth-id',
          'X-Service-Authentication-Key': 'own-master-key',
          Origin: EVIL,
        },
      });
      expect(res.status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('refuses a master token signed with what the built-in keys make public (before: a forged token read every user)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { scope: 'master', pid: 'dev-auth-id', jti: 'forged', iat: now, exp: now + 3600 };
    const b64url = (text: string) => Buffer.from(text).toString('base64url');
    const unsigned = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
    const signature = createHmac('sha256', 'basekit-access:dev-auth-id:dev-master-key').update(unsigned).digest();
    const forged = `${unsigned}.${signature.toString('base64url')}`;
    const res = await server.request('/auth/users?page=1&pageSize=10', {
      headers: { 'X-Service-Authentication-Id': 'dev-auth-id', Authorization: `Bearer ${forged}`, Origin: EVIL },
    });
    expect(res.status).toBe(401);
  });

  it('signs with a secret of the server: kept in the data folder (0600) across a restart, never shared by two servers', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'token-secret-'));
    try {
      const first = await startServer({ port: 0, dataDir });
      const login = (url: string) =>
        fetch(`${url}/auth/login`, {
          method: 'POST',
          headers: { 'X-Service-Authentication-Id': 'dev-auth-id', ...KEY },
        });
      const { access_token: token } = (await (await login(first.url)).json()) as { access_token: string };
      const users = (url: string) =>
        fetch(`${url}/auth/users?page=1&pageSize=1`, {
          headers: { 'X-Service-Authentication-Id': 'dev-auth-id', Authorization: `Bearer ${token}` },
        });
      expect((await users(server.url)).status).toBe(401); // another server on the same built-in keys
      await first.close();
      expect((await stat(join(dataDir, 'token-secret'))).mode & 0o777).toBe(0o600);
      const second = await startServer({ port: 0, dataDir });
      try {
        expect((await users(second.url)).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
