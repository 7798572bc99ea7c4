import { describe, expect, it } from 'vitest';
import { masterAuth } from '../support/users.js';
import { downloadPath, storageHeaders, storageSuite, uploadForm, uploadInPieces } from './support.js';

const suite = storageSuite({ maxUploadBytes: 64 * 1024 });

const text = async (saved: string) => (await suite.server.request(downloadPath(suite.server, saved))).text();
const listing = async (url: string) =>
  ((await (await suite.master.post('/files/directoryInfo', { url })).json()) as { files: { url: string }[] }).files;

describe('POST /files (upload)', () => {
  it('stores several files at once, creates missing folders and answers their saved paths in order', async () => {
    const res = await suite.user.upload([
      { name: 'a.txt', content: 'first', path: 'docs/2024/may' },
      { name: 'b.txt', content: 'second' },
      { name: 'c.txt', content: 'third', path: '/docs' },
    ]);
    expect(res.status).toBe(200);
    const { savedFilesUrls } = (await res.json()) as { savedFilesUrls: string[] };
    expect(savedFilesUrls).toEqual(['docs/2024/may/a.txt', 'b.txt', 'docs/c.txt']);
    expect(await Promise.all(savedFilesUrls.map(text))).toEqual(['first', 'second', 'third']);
    expect((await listing('docs')).map((r) => r.url)).toEqual(['/dev-storage/docs/2024', '/dev-storage/docs/c.txt']);
  });

  it('percent-encodes saved paths with spaces, special and non-Latin characters, and they download as they are', async () => {
    const names = ['my report.pdf', 'سلام دنیا.txt', 'a&b#c%d?.txt', 'naïve+plus.txt'];
    const saved = await suite.user.put(names.map((name) => ({ name, content: name, path: 'folder one' })));
    expect(saved).toEqual(names.map((name) => `folder%20one/${encodeURIComponent(name)}`));
    for (const [i, path] of saved.entries()) {
      expect(path).not.toMatch(/[ &#?\u0600-\u06ff]/);
      expect(await text(path)).toBe(names[i]);
    }
  });

  it('keeps a double quote in a file name, as fetch and browsers (%22) and curl (\\") write it', async () => {
    expect(await suite.user.put([{ name: 'say "hi".txt', content: 'fetch' }])).toEqual([
      encodeURIComponent('say "hi".txt'),
    ]);
    const curlStyle =
      '--b\r\nContent-Disposition: form-data; name="fileItems[0].fileToUpload"; filename="curl \\"q\\".txt"\r\n\r\ncurl\r\n--b--\r\n';
    const headers = {
      ...storageHeaders(suite.server, await masterAuth(suite.server)),
      'Content-Type': 'multipart/form-data; boundary=b',
    };
    const res = await suite.server.request('/files', { method: 'POST', headers, body: curlStyle });
    expect(await res.json()).toEqual({ savedFilesUrls: [encodeURIComponent('curl "q".txt')] });
    expect(await text(encodeURIComponent('curl "q".txt'))).toBe('curl');
  });

  it('refuses an existing file with replacing false (417) and stores nothing of that request', async () => {
    await suite.user.put([{ name: 'taken.txt', content: 'old' }]);
    const res = await suite.user.upload([
      { name: 'new.txt', content: 'new', path: 'fresh' },
      { name: 'taken.txt', content: 'replacement', replacing: false },
    ]);
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: 601, error: expect.stringContaining('taken.txt') });
    expect(await text('taken.txt')).toBe('old');
    expect((await listing('/')).map((r) => r.url)).toEqual(['/dev-storage/taken.txt']);
  });

  it('treats a missing replacing field as false', async () => {
    await suite.user.put([{ name: 'x.txt', content: 'old' }]);
    expect((await suite.user.upload([{ name: 'x.txt', content: 'new' }])).status).toBe(417);
  });

  it('replaces a file with replacing true, keeping its guid and creation date', async () => {
    const [saved] = await suite.user.put([{ name: 'r.txt', content: 'one' }]);
    const before = await (await suite.master.post('/files/fileInfo', { url: saved })).json();
    await suite.server.admin('/__admin/clock', { method: 'POST', body: JSON.stringify({ advanceSeconds: 60 }) });
    await suite.user.put([{ name: 'r.txt', content: 'two!', replacing: true }]);
    const after = (await (await suite.master.post('/files/fileInfo', { url: saved })).json()) as Record<string, number>;
    expect(await text(saved!)).toBe('two!');
    expect(after).toMatchObject({ guid: before.guid, creationDate: before.creationDate, fileSizeInBytes: 4 });
    expect(after['lastModificationDate']! - before.lastModificationDate).toBeGreaterThanOrEqual(60_000);
  });

  it('refuses to put a file where a folder is, or a folder where a file is (417)', async () => {
    await suite.user.put([{ name: 'thing', content: 'x', path: 'd' }]);
    expect((await suite.user.upload([{ name: 'd', content: 'y', replacing: true }])).status).toBe(417);
    expect((await suite.user.upload([{ name: 'z.txt', content: 'y', path: 'd/thing' }])).status).toBe(417);
  });

  it('refuses two items for the same destination (400)', async () => {
    const res = await suite.user.upload([
      { name: 'same.txt', content: '1' },
      { name: 'same.txt', content: '2', replacing: true },
    ]);
    expect(res.status).toBe(400);
    expect(await listing('/')).toEqual([]);
  });

  it('records the uploader as owner, and null for the master token', async () => {
    await suite.user.put([{ name: 'mine.txt', content: 'u' }]);
    await suite.master.put([{ name: 'admin.txt', content: 'm' }]);
    const files = (await (await suite.master.post('/files/directoryInfo', { url: '/' })).json()) as {
      files: { ownerId: string | null }[];
    };
    expect(files.files.map((f) => f.ownerId)).toEqual([null, suite.userId]);
  });

  it('answers 400 for bodies that are not a proper upload', async () => {
    const headers = storageHeaders(suite.server, await masterAuth(suite.server));
    const send = (body: BodyInit, extra: Record<string, string> = {}) =>
      suite.server.request('/files', { method: 'POST', headers: { ...headers, ...extra }, body });
    const form = (entries: [string, string | Blob, string?][]) => {
      const f = new FormData();
      for (const [k, v, name] of entries) typeof v === 'string' ? f.append(k, v) : f.append(k, v, name);
      return f;
    };
    const blob = new Blob(['x']);
    const cases: [string, Response][] = [
      ['json body', await send('{"a":1}', { 'Content-Type': 'application/json' })],
      ['no items', await send(form([]))],
      [
        'unknown field',
        await send(
          form([
            ['fileItems[0].fileToUpload', blob, 'a.txt'],
            ['fileItems[0].colour', 'red'],
          ]),
        ),
      ],
      ['path without file', await send(form([['fileItems[0].path', 'x']]))],
      ['file as text', await send(form([['fileItems[0].fileToUpload', 'not a file']]))],
      [
        'bad replacing',
        await send(
          form([
            ['fileItems[0].fileToUpload', blob, 'a.txt'],
            ['fileItems[0].replacing', 'maybe'],
          ]),
        ),
      ],
      ['bad file name', await send(form([['fileItems[0].fileToUpload', blob, '..']]))],
      [
        'truncated',
        await send(new Blob(['--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nabc']), {
          'Content-Type': 'multipart/form-data; boundary=xyz',
        }),
      ],
    ];
    for (const [label, res] of cases) {
      expect([label, res.status]).toEqual([label, 400]);
      expect(await res.json()).toEqual({ code: expect.any(Number), error: expect.any(String) });
    }
    expect(await listing('/')).toEqual([]);
  });

  it('accepts the items in any index order and stores them in index order', async () => {
    const f = uploadForm([]);
    f.append('fileItems[1].fileToUpload', new Blob(['one']), 'one.txt');
    f.append('fileItems[0].path', 'p');
    f.append('fileItems[0].fileToUpload', new Blob(['zero']), 'zero.txt');
    const res = await suite.server.request('/files', {
      method: 'POST',
      headers: storageHeaders(suite.server, await masterAuth(suite.server)),
      body: f,
    });
    expect(await res.json()).toEqual({ savedFilesUrls: ['p/zero.txt', 'one.txt'] });
  });
});

describe('upload size limit (maxUploadBytes)', () => {
  it('answers 413 with the error body when Content-Length is over the limit', async () => {
    const res = await suite.user.upload([{ name: 'big.bin', content: new Uint8Array(65 * 1024) }]);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 606, error: expect.stringContaining('65536') });
    expect(await listing('/')).toEqual([]);
  });

  it('answers 413 for a streamed body without Content-Length once it passes the limit', async () => {
    const { body, contentType } = await uploadInPieces([{ name: 'big.bin', content: new Uint8Array(100 * 1024) }]);
    const headers = {
      ...storageHeaders(suite.server, await masterAuth(suite.server)),
      'Content-Type': contentType,
    };
    const res = await suite.server.request('/files', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 606 });
  });

  it('accepts a streamed body under the limit', async () => {
    const form = new Request('http://x/', {
      method: 'POST',
      body: uploadForm([{ name: 'ok.bin', content: new Uint8Array(30 * 1024).fill(7) }]),
    });
    const bytes = new Uint8Array(await form.arrayBuffer());
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.slice(i, i + 1000));
        controller.close();
      },
    });
    const headers = {
      ...storageHeaders(suite.server, await masterAuth(suite.server)),
      'Content-Type': form.headers.get('content-type')!,
    };
    const res = await suite.server.request('/files', { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
    expect(await res.json()).toEqual({ savedFilesUrls: ['ok.bin'] });
    const download = new Uint8Array(
      await (await suite.server.request(downloadPath(suite.server, 'ok.bin'))).arrayBuffer(),
    );
    expect(download).toEqual(new Uint8Array(30 * 1024).fill(7));
  });
});

describe('POST /directories', () => {
  it('answers 201 when it creates the folder (and its parents) and 200 when it exists', async () => {
    const create = () => suite.user.post('/directories', { path: 'a/b c/d' });
    const first = await create();
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ path: 'a/b%20c/d' });
    expect((await create()).status).toBe(200);
    expect((await suite.user.post('/directories', { path: '/dev-storage/a/b%20c' })).status).toBe(200);
    expect((await listing('a/b c')).map((r) => r.url)).toEqual(['/dev-storage/a/b%20c/d']);
  });

  it('answers 400 without a path and 417 when a file is in the way', async () => {
    expect((await suite.user.post('/directories', {})).status).toBe(400);
    expect((await suite.user.post('/directories', { path: 5 })).status).toBe(400);
    await suite.user.put([{ name: 'f', content: 'x' }]);
    const res = await suite.user.post('/directories', { path: 'f/sub' });
    expect(res.status).toBe(417);
    expect(await res.json()).toMatchObject({ code: 601 });
  });
});
