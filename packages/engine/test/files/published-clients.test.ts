// What the service's published storage clients send, beyond the letter of the spec (docs/published-clients.md).
import { describe, expect, it } from 'vitest';
import { storageSuite } from './support.js';

const suite = storageSuite();

const exists = async (url: string) => (await suite.master.post('/files/fileInfo', { url })).status === 200;

describe('published storage clients', () => {
  it('take "true" and "false" as strings where the JSON holds flags', async () => {
    await suite.master.put([
      { name: 'a.txt', content: 'a', path: 'src' },
      { name: 'a.txt', content: 'old', path: 'dst/src' },
    ]);
    const copy = await suite.master.post('/files/copy', {
      sourceUrls: ['/src'],
      forces: ['true'],
      destinationUrl: '/dst',
    });
    expect(copy.status).toBe(200);
    const refused = await suite.master.post('/files/copy', {
      sourceUrls: ['/src'],
      forces: ['false'],
      destinationUrl: '/dst',
    });
    expect(refused.status).toBe(417);
    const bad = await suite.master.post('/files/copy', {
      sourceUrls: ['/src'],
      forces: ['yes'],
      destinationUrl: '/dst',
    });
    expect(bad.status).toBe(400);
    expect((await suite.master.post('/files/delete', { urls: ['/dst'], forced: ['true'] })).status).toBe(200);
    expect(await exists('/dst')).toBe(false);
  });

  it('delete with DELETE /files and the JSON body of POST /files/delete', async () => {
    await suite.user.put([{ name: 'b.txt', content: 'b', path: 'box' }]);
    const res = await suite.user.delete('/files', { urls: ['/box/b.txt'], forced: [false] });
    expect(res.status).toBe(200);
    expect(await exists('/box/b.txt')).toBe(false);
  });
});
