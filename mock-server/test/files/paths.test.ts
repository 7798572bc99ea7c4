import { request as httpRequest } from 'node:http';
import { beforeEach, describe, expect, it } from 'vitest';
import { storageSuite } from './support.js';

const suite = storageSuite();
beforeEach(async () => {
  await suite.master.put([{ name: 'inside.txt', content: 'in', path: 'safe' }]);
});

/** A GET with the path sent exactly as written (fetch would normalise dot segments first). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${suite.server.url}${path}`, { method: 'GET', path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const BAD_PATHS = [
  '../outside',
  'safe/../../outside',
  '%2e%2e/outside',
  '%2E%2E/outside',
  '.%2e/outside',
  '%252e%252e/outside',
  'safe/%2e',
  'a\\b',
  'a%5Cb',
  'a%5cb',
  'a%2fb',
  'a%252fb',
  'nul%00byte',
  'line%0Abreak',
  'tab\tname',
  'bell%07',
  'del%7F',
  'bad%escape',
  '%C0%AE%C0%AE/overlong',
  `${'n'.repeat(256)}`,
  `${'é'.repeat(128)}`, // 256 UTF-8 bytes
  Array.from({ length: 120 }, () => 'folder-name').join('/'), // over 1024 characters
];

describe('path safety', () => {
  it.each(BAD_PATHS)('refuses %j before touching storage (400)', async (path) => {
    const responses = [
      await suite.master.upload([{ name: 'x.txt', content: 'x', path }]),
      await suite.master.post('/directories', { path }),
      await suite.master.post('/files/directoryInfo', { url: path }),
      await suite.master.post('/files/fileInfo', { url: `${path}/x` }),
      await suite.master.post('/files/delete', { urls: [path], forced: [true] }),
      await suite.master.post('/files/copy', { sourceUrls: ['safe/inside.txt'], forces: [true], destinationUrl: path }),
      await suite.master.post('/files/move', { sourceUrls: [path], forces: [true], destinationUrl: 'elsewhere' }),
      await suite.master.post('/files/rename', { items: [{ pathToRename: `${path}/x`, newFileName: 'y' }] }),
    ];
    for (const res of responses) {
      expect([path, res.url, res.status]).toEqual([path, res.url, 400]);
      expect(await res.json()).toMatchObject({ code: 600 });
    }
    const { files } = (await (await suite.master.post('/files/directoryInfo', { url: '/' })).json()) as {
      files: { url: string }[];
    };
    expect(files.map((f) => f.url)).toEqual(['/dev-storage/safe']);
  });

  it('refuses unsafe upload file names and new names', async () => {
    for (const name of ['..', '.', 'a\\b', 'x\u0001y', 'é'.repeat(128), '%2e%2e', '..%2f..%2fetc']) {
      expect([name, (await suite.master.upload([{ name, content: 'x' }])).status]).toEqual([name, 400]);
      const rename = await suite.master.post('/files/rename', {
        items: [{ pathToRename: 'safe/inside.txt', newFileName: name }],
      });
      expect([name, rename.status]).toEqual([name, 400]);
    }
  });

  it('refuses encoded traversal in download paths, and only serves the bucket', async () => {
    for (const path of [
      '/dev-storage/..%2f..%2fetc%2fpasswd',
      '/dev-storage/%252e%252e/safe/inside.txt',
      '/dev-storage/safe%5C..%5Cinside.txt',
      '/dev-storage/safe/inside.txt%00.png',
    ]) {
      expect([path, (await rawGet(path)).status]).toEqual([path, 400]);
    }
    // Dot segments are resolved by URL parsing first: they can only lead out of the bucket, where nothing is served.
    expect((await rawGet('/dev-storage/../dev-storage/safe/inside.txt')).body).toBe('in');
    expect((await rawGet('/dev-storage/safe/../../etc/passwd')).status).toBe(404);
  });

  it('accepts names that only look odd: dots inside names, percent signs, spaces, quotes', async () => {
    const names = ['..hidden', 'a..b', '...', '100%', '50%off.txt', 'it\'s "quoted".txt', ' spaced '];
    const saved = await suite.master.put(names.map((name) => ({ name, content: name, path: 'odd' })));
    for (const [i, path] of saved.entries())
      expect(await (await suite.server.request(`/dev-storage/${path}`)).text()).toBe(names[i]);
  });

  it('accepts the same location with or without the bucket prefix, with or without the origin', async () => {
    for (const url of [
      'safe/inside.txt',
      '/safe/inside.txt',
      '/dev-storage/safe/inside.txt',
      `${suite.server.url}/dev-storage/safe/inside.txt`,
      'safe//inside.txt/',
    ]) {
      const res = await suite.master.post('/files/fileInfo', { url });
      expect([url, res.status]).toEqual([url, 200]);
      expect(await res.json()).toMatchObject({ url: '/dev-storage/safe/inside.txt' });
    }
  });

  it('keeps a top-level folder named like the bucket reachable through the prefix', async () => {
    const [saved] = await suite.master.put([{ name: 'f.txt', content: 'nested', path: '/dev-storage/dev-storage' }]);
    expect(saved).toBe('dev-storage/f.txt');
    expect(await (await suite.server.request(`/dev-storage/${saved}`)).text()).toBe('nested');
    expect((await suite.master.post('/files/fileInfo', { url: saved })).status).toBe(200);
  });
});
