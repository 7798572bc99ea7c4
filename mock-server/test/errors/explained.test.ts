// Error answers that explain themselves: a 404 names the closest operations, a 401 says which of its causes
// it is, a 403 which permission was missing. Codes and statuses stay what they were; only the words say more.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProject } from '../../../packages/engine/test/projects/support.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { authIdHeader, createUser, type TestUser } from '../support/users.js';

let server: TestServer;
let ann: TestUser;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  ann = await createUser(server, 'ann');
});

async function answer(res: Response | Promise<Response>): Promise<[number, { code: number; error: string }]> {
  const response = await res;
  return [response.status, (await response.json()) as { code: number; error: string }];
}

const me = (authorization?: string) =>
  server.request('/auth/users/me', {
    headers: { ...authIdHeader(server), ...(authorization !== undefined && { Authorization: authorization }) },
  });

describe('a path that matches no operation', () => {
  it.each([
    ['POST', '/auth/user', 'POST /auth/users'],
    ['GET', '/auth/usres/me', 'GET /auth/users/me'],
    ['PUT', '/object-storage/classes/Score', 'POST /object-storage/classes/{table}'],
    ['GET', '/dev-storag/docs/a.txt', 'GET /dev-storage/{path}'],
    ['POST', '/game/event', 'POST /game/events'],
  ])('%s %s answers 404, code 2, naming the closest operations (%s first)', async (method, path, closest) => {
    const [status, body] = await answer(
      server.request(path, {
        method,
        // The areas check their headers and token before the operation: a request that passes them reaches the 404.
        headers: {
          'X-Service-Object-Storage-Id': server.config.objectStorageId,
          'X-Service-Game-Id': server.config.gameId,
          ...ann.auth,
        },
      }),
    );
    expect(status).toBe(404);
    expect(body.code).toBe(2);
    expect(body.error).toBe(
      `no such operation: ${method} ${path}; the closest are ${closest}${body.error.slice(body.error.indexOf(closest) + closest.length)}`,
    );
    expect(body.error.split('the closest are ')[1]!.split(', ')).toHaveLength(3);
  });

  it('names admin operations only for a path under /__admin', async () => {
    const [status, body] = await answer(server.admin('/__admin/rest', { method: 'POST' }));
    expect([status, body.code]).toEqual([404, 2]);
    expect(body.error).toMatch(/; the closest are POST \/__admin\/reset, /);
  });

  it('stays cheap and bounded for a very long path', async () => {
    const started = performance.now();
    const [status, body] = await answer(server.request(`/auth/${'x'.repeat(12_000)}`, { method: 'POST' }));
    expect(status).toBe(404);
    expect(body.error.length).toBeLessThan(600);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('a 401 says which of its causes it is (code 209)', () => {
  it.each([
    [undefined, 'the Authorization header is missing'],
    ['Token abc', 'is not "<token_type> <access_token>"'],
    ['Bearer  abc', 'is not "<token_type> <access_token>"'],
    ['Bearer abc', 'the access token is malformed'],
  ])('Authorization %j: %s', async (authorization, message) => {
    const [status, body] = await answer(me(authorization));
    expect([status, body.code]).toEqual([401, 209]);
    expect(body.error).toContain(message);
  });

  it('a token whose signature was altered', async () => {
    const token = ann.accessToken;
    const altered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const [status, body] = await answer(me(`Bearer ${altered}`));
    expect([status, body.code]).toEqual([401, 209]);
    expect(body.error).toContain("signature is not this project's");
  });

  it('an expired token, with when it expired and the server time now', async () => {
    await server.admin('/__admin/clock', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 8000 }),
    });
    const { now } = (await (await server.admin('/__admin/clock')).json()) as { now: string };
    const [status, body] = await answer(me(ann.auth['Authorization']));
    expect([status, body.code]).toEqual([401, 209]);
    expect(body.error).toMatch(/^the access token expired at \d{4}-\d\d-\d\dT[\d:.]+Z \(server time now (.+)\)$/);
    const shown = Date.parse(/server time now (.+)\)$/.exec(body.error)![1]!);
    expect(Math.abs(shown - Date.parse(now))).toBeLessThan(5000);
  });

  it("another project's token", async () => {
    const other = await createProject(server);
    const bob = await createUser(other, 'bob');
    const [status, body] = await answer(me(bob.auth['Authorization']));
    expect([status, body.code]).toEqual([401, 209]);
    expect(body.error).toBe(
      `the access token is of another project ("${other.config.authenticationId}"), not of "${server.config.authenticationId}"`,
    );
  });

  it('the token of a user that no longer exists', async () => {
    await server.reset();
    const [status, body] = await answer(me(ann.auth['Authorization']));
    expect([status, body]).toEqual([401, { code: 209, error: 'the user of this access token no longer exists' }]);
  });
});

describe('a 403 says which permission was missing (code 119)', () => {
  it("a user's token where the master token is needed", async () => {
    const [status, body] = await answer(
      server.request('/auth/users', { headers: { ...authIdHeader(server), ...ann.auth } }),
    );
    expect([status, body.code]).toEqual([403, 119]);
    expect(body.error).toBe("this operation requires the master token; this is a user's token (scope client)");
  });

  it('a row whose ACL does not give the caller read or write', async () => {
    const bob = await createUser(server, 'bob');
    const headers = (user: TestUser) => ({
      'X-Service-Object-Storage-Id': server.config.objectStorageId,
      ...user.auth,
      'Content-Type': 'application/json',
    });
    const created = await server.request('/object-storage/classes/Note', {
      method: 'POST',
      headers: headers(ann),
      body: JSON.stringify({ ACL: { [ann.userId]: { read: true, write: true }, '*': { read: true } } }),
    });
    const { _id } = (await created.json()) as { _id: string };
    const [status, body] = await answer(
      server.request(`/object-storage/classes/Note/${_id}`, { method: 'PUT', headers: headers(bob), body: '{"x":1}' }),
    );
    expect([status, body.code]).toEqual([403, 119]);
    expect(body.error).toBe(
      `the ACL of row "${_id}" does not let you change it: it gives "write" neither to "*" nor to user "${bob.userId}" (the master token may)`,
    );
  });

  it('an admin call without the master key says what it got', async () => {
    expect((await answer(server.request('/__admin/faults')))[1].error).toContain('none was sent');
    const [status, body] = await answer(
      server.request('/__admin/faults', { headers: { 'X-Service-Authentication-Key': server.config.clientKey } }),
    );
    expect([status, body.code]).toEqual([403, 119]);
    expect(body.error).toContain('not the client key');
  });
});
