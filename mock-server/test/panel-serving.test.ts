// The Node server's static serving of the panel (mock-server/src/panel.ts), on a hand-made build: no Vite, no browser.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.js';

const PAGE = '<html><head><meta name="basekit-header-word" content="Service" /></head><body>panel</body></html>';

describe('serving the panel', () => {
  let folder: string;
  let server: TestServer;
  let unbuilt: TestServer;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'panel-serving-'));
    await mkdir(join(folder, 'assets'));
    await writeFile(join(folder, 'index.html'), PAGE);
    await writeFile(join(folder, 'assets', 'app-1234.js'), 'console.log(1)');
    await writeFile(join(folder, 'secret.txt'), 'not an asset');
    server = await startTestServer({ headerWord: ['Acme', 'Service'] }, { panelDir: folder });
    unbuilt = await startTestServer({}, { panelDir: join(folder, 'missing') });
  });
  afterAll(async () => {
    await server.close();
    await unbuilt.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('answers assets with their type and a year of caching, HEAD without a body', async () => {
    const res = await server.request('/__admin/panel/assets/app-1234.js');
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control'), await res.text()]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
      'console.log(1)',
    ]);
    const head = await server.request('/__admin/panel/assets/app-1234.js', { method: 'HEAD' });
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '14', '']);
  });

  it('answers the page, in the first header word, for every other path below the panel, and nothing outside its assets', async () => {
    for (const path of [
      '',
      'users/abc',
      'database/T/x?where=%7B%7D',
      'assets/missing.js',
      'secret.txt',
      'assets/..%2fsecret.txt',
      '%E0%A4%A',
    ]) {
      const res = await server.request(`/__admin/panel/${path}`);
      expect([res.status, res.headers.get('cache-control'), await res.text()], path).toEqual([
        200,
        'no-cache',
        PAGE.replace('content="Service"', 'content="Acme"'),
      ]);
    }
    const bare = await server.request('/__admin/panel', { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, `${server.url}/__admin/panel/`]);
  });

  it('leaves other methods to the admin API, which wants the master key', async () => {
    const res = await server.request('/__admin/panel/', { method: 'POST' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 119 });
  });

  it('says how to build the panel when it is not built', async () => {
    const res = await unbuilt.request('/__admin/panel/');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('npm run build -w @basekit/mock-server');
  });
});
