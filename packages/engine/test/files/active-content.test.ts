import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { downloadPath, masterClient } from './support.js';

// Uploaded files are served on the API's own origin: a page or an SVG with a script must never run there.

let server: TestServer;
const SCRIPT = '<script>fetch("/auth/users/me")</script>';
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/>${SCRIPT}</svg>`;

beforeAll(async () => {
  server = await startTestServer();
  await (await masterClient(server)).put([
    { name: 'page.html', content: `<html>${SCRIPT}</html>` },
    { name: 'page.htm', content: `<html>${SCRIPT}</html>` },
    { name: 'logo.svg', content: SVG },
    { name: 'data.xml', content: '<a/>' },
    { name: 'page.xhtml', content: '<html xmlns="http://www.w3.org/1999/xhtml"/>' },
    { name: 'declared', content: `<html>${SCRIPT}</html>`, type: 'text/html; charset=utf-8' },
    { name: 'declared-xml', content: '<a/>', type: 'application/atom+xml' },
    { name: 'photo.png', content: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
    { name: 'clip.mp4', content: new Uint8Array(16) },
    { name: 'notes.txt', content: 'plain' },
  ]);
});
afterAll(() => server.close());

const get = (name: string, headers: Record<string, string> = {}) =>
  server.request(downloadPath(server, name), { headers });

describe('downloads of active content', () => {
  it('carry a sandboxing Content-Security-Policy and nosniff on every answer, 304 included', async () => {
    for (const name of ['page.html', 'logo.svg', 'photo.png', 'clip.mp4', 'notes.txt']) {
      const res = await get(name);
      expect([name, res.headers.get('content-security-policy')]).toEqual([
        name,
        "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
      ]);
      expect([name, res.headers.get('x-content-type-options')]).toEqual([name, 'nosniff']);
      const revalidated = await get(name, { 'If-None-Match': res.headers.get('etag')! });
      expect([name, revalidated.status, revalidated.headers.get('content-security-policy')]).toEqual([
        name,
        304,
        res.headers.get('content-security-policy'),
      ]);
    }
  });

  it('serve HTML, SVG and XML (by name or declared type) as attachments, so a browser never renders them on this origin', async () => {
    for (const name of ['page.html', 'page.htm', 'logo.svg', 'data.xml', 'page.xhtml', 'declared', 'declared-xml']) {
      expect([name, (await get(name)).headers.get('content-disposition')]).toEqual([
        name,
        expect.stringMatching(/^attachment; filename="/),
      ]);
    }
  });

  it('keep images, videos and text inline, so pages show and play them', async () => {
    for (const name of ['photo.png', 'clip.mp4', 'notes.txt']) {
      expect([name, (await get(name)).headers.get('content-disposition')]).toEqual([
        name,
        expect.stringMatching(/^inline; filename="/),
      ]);
    }
  });
});
