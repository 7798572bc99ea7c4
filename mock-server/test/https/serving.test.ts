import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@basekit/engine';
import { startServer, type RunningServer } from '../../src/server.js';
import type { TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';
import { http2Session, multipart, overHttp1, overHttp2, trustingFetch } from './support.js';

/**
 * `httpsPort` serves every area, the panel and the admin API over HTTPS beside HTTP, from one engine and
 * one state; HTTP/2 to a client that offers it (ALPN), HTTP/1.1 otherwise; files up and down, resized images too.
 */

let server: RunningServer;
let ca: string;
let https: Pick<TestServer, 'request' | 'config'>;
let user: TestUser;
let h2: ClientHttp2Session;
const { storageId, bucket = storageId, masterKey } = DEFAULT_CONFIG;

beforeAll(async () => {
  const tlsDir = join(await mkdtemp(join(tmpdir(), 'basekit-https-')), 'tls');
  server = await startServer({ port: 0, httpsPort: 0, tlsDir });
  ca = await readFile(server.certificate!.file, 'utf8');
  const fetchTrusting = trustingFetch(ca);
  https = { config: DEFAULT_CONFIG, request: (path, init) => fetchTrusting(`${server.httpsUrl}${path}`, init) };
  user = await createUser(https as TestServer, 'ann');
  h2 = await http2Session(server.httpsUrl!, ca);
});

afterAll(async () => {
  h2?.close();
  await server?.close();
});

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();

async function uploadForm(name: string, bytes: Buffer): Promise<FormData> {
  const form = new FormData();
  form.append('fileItems[0].fileToUpload', new Blob([new Uint8Array(bytes)]), name);
  form.append('fileItems[0].path', '/pictures');
  form.append('fileItems[0].replacing', 'true');
  return form;
}

describe('HTTPS beside HTTP', () => {
  it('listens on both, with the certificate of a local CA', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.certificate).toMatchObject({ source: 'local', made: 'authority', warnings: [] });
  });

  it('shares one state: a user registered over HTTPS logs in over HTTP, and the reverse', async () => {
    const overHttp = await createUser(
      { config: DEFAULT_CONFIG, request: (path, init) => fetch(`${server.url}${path}`, init) } as TestServer,
      'bob',
    );
    const me = await https.request('/auth/users/me', {
      headers: { ...overHttp.auth, 'X-Service-Authentication-Id': 'dev-auth-id' },
    });
    expect(await me.json()).toMatchObject({ username: 'bob' });
    const ann = await fetch(`${server.url}/auth/users/me`, {
      headers: { ...user.auth, 'X-Service-Authentication-Id': 'dev-auth-id' },
    });
    expect(await ann.json()).toMatchObject({ username: 'ann' });
  });

  it('serves the admin API and the panel over HTTPS', async () => {
    const state = await https.request('/__admin/state', { headers: { 'X-Service-Authentication-Key': masterKey } });
    expect(state.status).toBe(200);
    expect(JSON.stringify(await state.json())).toContain('"ann"');
    const panel = await https.request('/__admin/panel/');
    expect(panel.status).toBe(200);
    expect(panel.headers.get('content-type')).toContain('text/html');
  });

  it('speaks HTTP/2 to a client that offers h2, HTTP/1.1 to one that does not, and the same answers on both', async () => {
    const headers = { 'x-service-authentication-id': 'dev-auth-id', 'content-type': 'application/json' };
    const body = Buffer.from(JSON.stringify({ username: 'h2-user', password: 'pw' }));
    const two = await overHttp2(h2, '/auth/users', { method: 'POST', headers, body });
    expect(h2.alpnProtocol).toBe('h2');
    expect(two).toMatchObject({ status: 200, protocol: 'HTTP/2' });
    // The engine's JSON answer, written straight to the HTTP/2 stream: its length and type as over HTTP/1.1.
    expect(two.headers['content-type']).toBe('application/json');
    expect(Number(two.headers['content-length'])).toBe(two.body.length);
    expect(JSON.parse(two.body.toString())).toMatchObject({ username: 'h2-user' });
    // The same call on both protocols, the same answer.
    const me = { 'x-service-authentication-id': 'dev-auth-id', authorization: user.auth['Authorization']! };
    const one = await overHttp1(`${server.httpsUrl}/auth/users/me`, ca, { headers: me });
    expect(one).toMatchObject({ status: 200, protocol: 'HTTP/1.1' });
    expect((await overHttp2(h2, '/auth/users/me', { headers: me })).body.toString()).toBe(one.body.toString());
    const offered = await overHttp1(`${server.httpsUrl}/__health`, ca, { alpn: ['http/1.1'] });
    expect(offered).toMatchObject({ status: 200, protocol: 'HTTP/1.1' });
    const plain = await fetch(`${server.url}/__health`);
    expect(plain.status).toBe(200);
  });

  it('uploads, downloads and resizes images over HTTPS, on HTTP/1.1 and HTTP/2', async () => {
    const area = { ...user.auth, 'x-service-storage-id': storageId };
    const original = await png(64, 32);
    // HTTP/1.1 (fetch)
    const up1 = await https.request('/files', {
      method: 'POST',
      headers: area,
      body: await uploadForm('one.png', original),
    });
    expect(up1.status).toBe(200);
    const [saved1] = ((await up1.json()) as { savedFilesUrls: string[] }).savedFilesUrls;
    const down1 = await https.request(`/${bucket}/${saved1}`);
    expect(Buffer.from(await down1.arrayBuffer()).equals(original)).toBe(true);
    const resized1 = await https.request(`/${bucket}/${saved1}/r/16x16`);
    expect(await sharp(Buffer.from(await resized1.arrayBuffer())).metadata()).toMatchObject({ width: 16, height: 8 });
    // HTTP/2 (a multipart body of the same shape, on a stream)
    const { body, contentType } = await multipart(await uploadForm('two.png', original));
    const up2 = await overHttp2(h2, '/files', {
      method: 'POST',
      headers: { ...area, 'content-type': contentType },
      body,
    });
    expect(up2.status).toBe(200);
    const [saved2] = (JSON.parse(up2.body.toString()) as { savedFilesUrls: string[] }).savedFilesUrls;
    const down2 = await overHttp2(h2, `/${bucket}/${saved2}`);
    expect(down2.body.equals(original)).toBe(true);
    const resized2 = await overHttp2(h2, `/${bucket}/${saved2}/r/32x8`);
    expect(await sharp(resized2.body).metadata()).toMatchObject({ width: 16, height: 8 });
  });
});

describe('the HTTP side is unchanged', () => {
  it('without httpsPort: HTTP only, no certificate made or looked for', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'basekit-http-only-'));
    const plain = await startServer({ port: 0, tlsDir: join(folder, 'tls') });
    try {
      expect(plain.httpsUrl).toBeUndefined();
      expect(plain.certificate).toBeUndefined();
      expect(existsSync(join(folder, 'tls'))).toBe(false);
      const res = await fetch(`${plain.url}/__health`);
      expect(res.status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});
