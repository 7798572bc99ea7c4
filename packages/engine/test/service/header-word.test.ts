import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ headerWord: ['Service', 'Acme'] });
});
afterAll(() => server.close());

const login = (word: string, key = server.config.masterKey) =>
  server.request('/auth/login', {
    method: 'POST',
    headers: { [`X-${word}-Authentication-Id`]: server.config.authenticationId, [`X-${word}-Authentication-Key`]: key },
  });

async function token(word: string): Promise<string> {
  const res = await login(word);
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

describe('headerWord', () => {
  it('accepts the service headers under every configured word, in any letter case', async () => {
    await token('Service');
    await token('Acme');
    await token('ACME');
    const rows = await server.request(`/object-storage/classes/query/Note`, {
      method: 'POST',
      headers: {
        'x-acme-object-storage-id': server.config.objectStorageId,
        Authorization: `Bearer ${await token('Acme')}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(rows.status).toBe(200);
  });

  it('refuses the headers of a word it is not configured for', async () => {
    expect((await login('Other')).status).toBe(417); // as for a missing authentication id (docs/errors.md)
  });

  it('takes a changed word at run time, and then refuses X-Service-… when "Service" is no longer accepted', async () => {
    const patch = (headerWord: string[]) =>
      server.admin('/__admin/config', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ headerWord }),
      });
    try {
      // The admin API itself reads the master key under the configured word.
      expect((await patch(['Acme'])).status).toBe(200);
      expect((await login('Service')).status).toBe(417);
      await token('Acme');
    } finally {
      const restore = await server.request('/__admin/config', {
        method: 'PATCH',
        headers: { 'X-Acme-Authentication-Key': server.config.masterKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ headerWord: ['Service', 'Acme'] }),
      });
      expect(restore.status).toBe(200);
    }
  });

  it('refuses a word that is not one alphanumeric word', async () => {
    const res = await server.admin('/__admin/config', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ headerWord: 'Acme-Corp' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: expect.stringContaining('headerWord') });
  });
});
