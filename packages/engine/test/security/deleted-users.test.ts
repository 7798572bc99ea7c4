// A token outlives its user only on paper: after an admin reset (or a restart of a server that keeps users in
// memory) every area answers 401 to the tokens of users that are gone, and changes nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { uploadForm } from '../files/support.js';

let server: TestServer;
let ghost: TestUser;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  ghost = await createUser(server, 'ghost');
  await server.reset();
});

/** Each area's write, as the user whose token it is would send it. */
const writes: [string, (auth: Record<string, string>) => Promise<Response>][] = [
  [
    'database: create a row',
    (auth) =>
      server.request('/object-storage/classes/Note', {
        method: 'POST',
        headers: {
          'X-Service-Object-Storage-Id': server.config.objectStorageId,
          'Content-Type': 'application/json',
          ...auth,
        },
        body: JSON.stringify({ text: 'hi' }),
      }),
  ],
  [
    'database: query',
    (auth) =>
      server.request('/object-storage/classes/query/Note', {
        method: 'POST',
        headers: { 'X-Service-Object-Storage-Id': server.config.objectStorageId, ...auth },
      }),
  ],
  [
    'files: upload',
    (auth) =>
      server.request('/files', {
        method: 'POST',
        headers: { 'X-Service-Storage-Id': server.config.storageId, ...auth },
        body: uploadForm([{ name: 'a.txt', content: 'hello' }]),
      }),
  ],
  [
    'files: create a folder',
    (auth) =>
      server.request('/directories', {
        method: 'POST',
        headers: { 'X-Service-Storage-Id': server.config.storageId, 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ path: 'ghost-folder' }),
      }),
  ],
  [
    'leaderboards: post a score',
    (auth) =>
      server.request('/game/events', {
        method: 'POST',
        headers: { 'X-Service-Game-Id': server.config.gameId, 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 10 }] }),
      }),
  ],
  [
    'transcoder: save a setting',
    (auth) =>
      server.request('/metadata/webhook', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ name: 'w', url: 'https://example.com/hook' }),
      }),
  ],
];

describe('the token of a user that no longer exists', () => {
  it.each(writes)('%s answers 401 and changes nothing', async (_, write) => {
    const before = await (await server.admin('/__admin/state')).json();
    const res = await write(ghost.auth);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 209, error: 'the user of this access token no longer exists' });
    const after = (await (await server.admin('/__admin/state')).json()) as { areas: unknown };
    expect(after.areas).toEqual((before as { areas: unknown }).areas);
  });

  it('the same requests of an existing user work, and the master token (which has no user) is not refused', async () => {
    const live = await createUser(server, 'alive');
    for (const [name, write] of writes) expect([200, 201, 202], name).toContain((await write(live.auth)).status);
    await server.reset();
    const master = await masterAuth(server);
    for (const [name, write] of writes) expect((await write(master)).status, name).not.toBe(401);
  });
});

describe('after a restart of a server that keeps users in memory', () => {
  it('a token issued before the restart answers 401', async () => {
    const first = await startTestServer();
    const user = await createUser(first, 'before-restart');
    await first.close();
    const second = await startTestServer();
    try {
      const res = await second.request('/object-storage/classes/Note', {
        method: 'POST',
        headers: {
          'X-Service-Object-Storage-Id': second.config.objectStorageId,
          'Content-Type': 'application/json',
          ...user.auth,
        },
        body: '{}',
      });
      expect(res.status).toBe(401);
    } finally {
      await second.close();
    }
  });
});
