// The request inspector's replay and HAR export: a request sent again as it came (its caller's token, its body, the
// project's header word), and the list exported as HAR with secrets masked. A replay kept by the journal is
// mock-server/test/inspector/replay-journal.test.ts (a data folder).
import type { ExchangeSummary } from '@basekit/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, type TestUser } from '../support/users.js';

/** The parts of a HAR entry these tests read. */
interface HarEntry {
  request: { method: string; url: string; postData: { text: string; params: { name: string; value: string }[] } };
  response: { status: number; content: { mimeType: string; text: string } };
  _caller: unknown;
}

const newest = async (server: TestServer, query: string): Promise<ExchangeSummary> => {
  const res = await server.admin(`/__admin/requests?limit=1&${query}`);
  return ((await res.json()) as { requests: ExchangeSummary[] }).requests[0]!;
};
const replay = (server: TestServer, id: string) => server.admin(`/__admin/requests/${id}/replay`, { method: 'POST' });

describe('POST /__admin/requests/{id}/replay', () => {
  let server: TestServer;
  let ann: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ headerWord: ['Acme', 'Service'] });
    ann = await createUser(server, 'ann');
  });
  afterAll(() => server.close());

  it("sends a request again as its caller did, in the project's header word, and lists the new one", async () => {
    const db = { 'X-Acme-Object-Storage-Id': server.config.objectStorageId, 'Content-Type': 'application/json' };
    const created = await server.request('/object-storage/classes/Note', {
      method: 'POST',
      headers: { ...db, ...ann.auth },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(created.status).toBe(201);
    const original = await newest(server, 'area=database');

    const res = await replay(server, original.id);
    expect(res.status).toBe(200);
    const again = (await res.json()) as ExchangeSummary;
    expect(again).toMatchObject({
      method: 'POST',
      path: '/object-storage/classes/Note',
      status: 201,
      caller: { kind: 'user', userId: ann.userId, username: 'ann' },
    });
    expect(again.id).not.toBe(original.id);
    expect(await newest(server, 'area=database')).toEqual(again);
    // The same row twice: the body went again, under the user's token (the ACL names them).
    const query = await server.request('/object-storage/classes/query/Note', {
      method: 'POST',
      headers: { ...db, ...ann.auth },
      body: '{}',
    });
    const { results } = (await query.json()) as { results: { text: string }[] };
    expect(results.map((row) => row.text)).toEqual(['hello', 'hello']);
  });

  it('sends a login form again (its password masked in the list, never lost to the replay)', async () => {
    const form = new FormData();
    form.set('username', 'ann');
    form.set('password', ann.password);
    const login = await server.request('/auth/login', {
      method: 'POST',
      headers: {
        'X-Acme-Authentication-Id': server.config.authenticationId,
        'X-Acme-Authentication-Key': server.config.clientKey,
      },
      body: form,
    });
    expect(login.status).toBe(200);
    const original = await newest(server, 'text=login');
    const again = (await (await replay(server, original.id)).json()) as ExchangeSummary;
    expect(again.status).toBe(200);
    const details = (await (await server.admin(`/__admin/requests/${again.id}`)).json()) as {
      request: { headers: Record<string, string>; body: { fields: Record<string, string> } };
    };
    expect(details.request.body.fields).toEqual({ username: 'ann', password: '[masked]' });
    expect(details.request.headers['x-replay-of']).toBe(original.id);
  });

  it('refuses a request whose body was not kept (409, code 60), and an unknown one (404, code 170)', async () => {
    const form = new FormData();
    form.set('fileItems[0].fileToUpload', new Blob(['abc']), 'a.txt');
    form.set('fileItems[0].path', 'docs');
    form.set('fileItems[0].replacing', 'true');
    const upload = await server.request('/files', {
      method: 'POST',
      headers: { 'X-Acme-Storage-Id': server.config.storageId, ...ann.auth },
      body: form,
    });
    expect(upload.status).toBe(200);
    const res = await replay(server, (await newest(server, 'area=storage')).id);
    expect([res.status, ((await res.json()) as { code: number }).code]).toEqual([409, 60]);
    const unknown = await replay(server, '0-0');
    expect([unknown.status, ((await unknown.json()) as { code: number }).code]).toEqual([404, 170]);
  });
});

describe('GET /__admin/requests/har', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await createUser(server, 'bob');
  });
  afterAll(() => server.close());

  it('exports the kept requests as HAR 1.2, oldest first, secrets masked, filters applied', async () => {
    const res = await server.admin('/__admin/requests/har?area=users');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="requests.har"');
    const { log } = (await res.json()) as { log: { version: string; entries: HarEntry[] } };
    expect(log.version).toBe('1.2');
    const [register, login] = log.entries as [HarEntry, HarEntry];
    expect(register.request).toMatchObject({ method: 'POST', url: `${server.url}/auth/users` });
    expect(JSON.parse(register.request.postData.text)).toEqual({ username: 'bob', password: '[masked]' });
    expect(register.response).toMatchObject({ status: 200, content: { mimeType: 'application/json' } });
    expect(login.request.postData.params).toContainEqual({ name: 'password', value: '[masked]' });
    expect(JSON.parse(login.response.content.text)).toMatchObject({ access_token: '[masked]' });
    expect(login._caller).toEqual({ kind: 'anonymous' });
    expect(JSON.stringify(log)).not.toContain('pw-bob');
  });
});
