import { describe, expect, it } from 'vitest';
import { masterAuth } from '../support/users.js';
import { storageHeaders, storageSuite, uploadForm } from './support.js';

// What one upload request may cost the server: bytes (maxUploadBytes, upload.test.ts) and parts (maxUploadParts).

const suite = storageSuite({ maxUploadParts: 4 });

const setParts = (maxUploadParts: number) => suite.server.patchConfig({ maxUploadParts });

async function listing(): Promise<unknown[]> {
  return ((await (await suite.master.post('/files/directoryInfo', { url: '/' })).json()) as { files: unknown[] }).files;
}

describe('upload part limit (maxUploadParts)', () => {
  it('takes as many parts as the limit and answers 413 (code 611) for one more, storing nothing', async () => {
    const two = [
      { name: 'a.txt', content: 'a', path: 'p' },
      { name: 'b.txt', content: 'b', path: 'p' },
    ];
    expect((await suite.user.upload(two)).status).toBe(200);
    const res = await suite.user.upload([...two.map((f) => ({ ...f, path: 'q' })), { name: 'c.txt', content: 'c' }]);
    expect([res.status, await res.json()]).toEqual([413, { code: 611, error: 'the upload has more than 4 parts' }]);
    expect(await listing()).toHaveLength(1);
  });

  it('refuses a flood of tiny parts while reading it, long before the body ends', async () => {
    await setParts(1000);
    try {
      // About a million 52-byte parts, the shape that cost seconds of CPU and hundreds of MiB before the answer.
      const part = new TextEncoder().encode('--B\r\nContent-Disposition: form-data; name="x"\r\n\r\nx\r\n');
      const batch = new Uint8Array(part.length * 1000).map((_, i) => part[i % part.length]!);
      const total = 50 * 1024 * 1024;
      let pulled = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= total) return controller.close();
          pulled += batch.length;
          controller.enqueue(batch);
        },
      });
      const headers = {
        ...storageHeaders(suite.server, await masterAuth(suite.server)),
        'Content-Type': 'multipart/form-data; boundary=B',
      };
      const res = await suite.server.request('/files', {
        method: 'POST',
        headers,
        body,
        duplex: 'half',
      } as RequestInit);
      expect([res.status, await res.json()]).toEqual([
        413,
        { code: 611, error: 'the upload has more than 1000 parts' },
      ]);
      expect(pulled).toBeLessThan(total / 4);
    } finally {
      await setParts(4);
    }
  });

  it('counts every part, also the ones an upload does not know', async () => {
    const form = uploadForm([{ name: 'a.txt', content: 'a' }]);
    for (let i = 0; i < 4; i++) form.append('extra', 'x');
    const res = await suite.server.request('/files', {
      method: 'POST',
      headers: storageHeaders(suite.server, await masterAuth(suite.server)),
      body: form,
    });
    expect(await res.json()).toEqual({ code: 611, error: 'the upload has more than 4 parts' });
  });
});
