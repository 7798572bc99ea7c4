// The Node server hashes passwords with Node's `crypto.pbkdf2` (its `pbkdf2` capability, src/pbkdf2.ts) where the
// engine's portable path (msw, browsers) uses WebCrypto: the same hash, so a user stored by either logs in on the other.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, DEFAULT_CONFIG, type StateJson } from '@basekit/engine';
import { webPbkdf2 } from '../../../packages/engine/src/shared/auth/password.js';
import { pbkdf2 } from '../../src/pbkdf2.js';
import { startServer, type RunningServer } from '../../src/server.js';

const { authenticationId, clientKey, masterKey } = DEFAULT_CONFIG;
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('the pbkdf2 capability', () => {
  it("gives the bytes of a published PBKDF2-HMAC-SHA256 vector (one of RFC 7914's)", async () => {
    expect(hex(await pbkdf2(utf8('passwd'), utf8('salt'), 1, 64))).toBe(
      '55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783',
    );
  });

  it("gives WebCrypto's bytes, for any password and salt", async () => {
    for (const [password, salt] of [
      ['login-0-pw', 'a'.repeat(16)],
      ['', '0123456789abcdef'],
      ['Zoë 🎮 ünïcode', '\u0000'.repeat(16)],
      ['x'.repeat(500), 'salt'],
    ] as const) {
      const [own, web] = await Promise.all([
        pbkdf2(utf8(password), utf8(salt), 10_000, 32),
        webPbkdf2(utf8(password), utf8(salt), 10_000, 32),
      ]);
      expect(hex(own)).toBe(hex(web));
    }
  });
});

describe('users stored by one platform', () => {
  let dir: string | undefined;
  const servers: RunningServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const loginForm = (username: string, password: string) => {
    const body = new FormData();
    body.set('username', username);
    body.set('password', password);
    return {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': clientKey },
      body,
    };
  };
  const register = (username: string, password: string): RequestInit => ({
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': authenticationId, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });

  it('log in on the Node server from its data folder when the portable hash (msw, browsers) stored them', async () => {
    const portable = createEngine(); // no capabilities: WebCrypto's hash, as in msw
    expect((await portable.fetch(new Request('http://local/auth/users', register('ann', 'pw-Zoë 🎮')))).status).toBe(
      200,
    );
    const state = (await (
      await portable.fetch(
        new Request('http://local/__admin/state', { headers: { 'X-Service-Authentication-Key': masterKey } }),
      )
    ).json()) as StateJson;
    dir = await mkdtemp(join(tmpdir(), 'basekit-hash-'));
    servers.push(await startServer({ port: 0, dataDir: dir, initialState: state }));
    await servers.pop()!.close();
    const server = await startServer({ port: 0, dataDir: dir }); // the user comes from the data folder
    servers.push(server);
    expect((await fetch(`${server.url}/auth/login`, loginForm('ann', 'pw-Zoë 🎮'))).status).toBe(200);
    expect((await fetch(`${server.url}/auth/login`, loginForm('ann', 'pw-Zoe'))).status).toBe(401);
  });

  it('log in on the portable engine when the Node server stored them', async () => {
    const server = await startServer({ port: 0 });
    servers.push(server);
    expect(server.engine.project.capabilities.pbkdf2).toBe(pbkdf2);
    expect((await fetch(`${server.url}/auth/users`, register('bob', 'pw-bob'))).status).toBe(200);
    const state = (await (
      await fetch(`${server.url}/__admin/state`, { headers: { 'X-Service-Authentication-Key': masterKey } })
    ).json()) as StateJson;
    const portable = createEngine({ initialState: state });
    expect((await portable.fetch(new Request('http://local/auth/login', loginForm('bob', 'pw-bob')))).status).toBe(200);
    expect((await portable.fetch(new Request('http://local/auth/login', loginForm('bob', 'pw-bo')))).status).toBe(401);
  });
});
