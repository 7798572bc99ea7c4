// The service's published clients add a trailing `/` to every path, double one inside a path or at the start of
// download addresses; the real service answered all of them (docs/published-clients.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth } from '../support/users.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('paths as the published clients write them', () => {
  it('answers every operation with a trailing slash as without it', async () => {
    const login = await server.request('/auth/login/', {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': server.config.authenticationId,
        'X-Service-Authentication-Key': server.config.masterKey,
      },
    });
    expect(login.status).toBe(200);
    const ann = await createUser(server, 'ann-slash');
    const me = await server.request('/auth/users/me/', {
      headers: { 'X-Service-Authentication-Id': server.config.authenticationId, ...ann.auth },
    });
    expect(((await me.json()) as { username: string }).username).toBe('ann-slash');
    const db = {
      'X-Service-Object-Storage-Id': server.config.objectStorageId,
      ...ann.auth,
      'Content-Type': 'application/json',
    };
    const created = await server.request('/object-storage/classes/Player/', {
      method: 'POST',
      headers: db,
      body: '{"name":"a"}',
    });
    expect(created.status).toBe(201);
    const query = await server.request('/object-storage/classes/query/Player/?limit=1', {
      method: 'POST',
      headers: db,
      body: '{}',
    });
    expect(((await query.json()) as { results: unknown[] }).results).toHaveLength(1);
  });

  it('reads a doubled slash inside a path as one', async () => {
    const master = await masterAuth(server);
    const headers = { 'X-Service-Authentication-Id': server.config.authenticationId, ...master };
    const plain = await server.request('/auth/users?page=0&pageSize=1', { headers });
    for (const path of ['/auth//users?page=0&pageSize=1', '/auth///users/?page=0&pageSize=1']) {
      const res = await server.request(path, { headers });
      expect([path, res.status, await res.json()]).toEqual([path, 200, await plain.clone().json()]);
    }
  });

  it('downloads a file whose address has a doubled leading slash or a trailing one', async () => {
    const form = new FormData();
    form.append('fileItems[0].fileToUpload', new Blob(['hello']), 'a.txt');
    form.append('fileItems[0].path', 'dir');
    const storage = { 'X-Service-Storage-Id': server.config.storageId, ...(await masterAuth(server)) };
    expect((await server.request('/files/', { method: 'POST', headers: storage, body: form })).status).toBe(200);
    for (const path of [
      `//${server.config.storageId}/dir/a.txt`,
      `/${server.config.storageId}/dir//a.txt`,
      `/${server.config.storageId}/dir/a.txt/`,
    ]) {
      const res = await server.request(path);
      expect([path, res.status, await res.text()]).toEqual([path, 200, 'hello']);
    }
  });

  it('still answers unknown paths 404', async () => {
    expect((await server.request('/auth/nothing/')).status).toBe(404);
    expect((await server.request('//')).status).toBe(404);
  });
});
