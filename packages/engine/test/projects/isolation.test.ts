import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { createProject } from './support.js';

// Two projects on one server, the default one (`a`) and a created one (`b`): what happens in one is never seen from
// the other, whatever the request carries.

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startTestServer();
  b = await createProject(a, { maxUploadBytes: 2048 });
});
afterAll(() => a.close());

const json = { 'Content-Type': 'application/json' };
const users = (server: TestServer) => ({ 'X-Service-Authentication-Id': server.config.authenticationId });
const db = (server: TestServer) => ({ 'X-Service-Object-Storage-Id': server.config.objectStorageId });
const storage = (server: TestServer) => ({ 'X-Service-Storage-Id': server.config.storageId });
const game = (server: TestServer) => ({ 'X-Service-Game-Id': server.config.gameId });

function upload(server: TestServer, user: TestUser, path: string, bytes: Uint8Array<ArrayBuffer>): Promise<Response> {
  const form = new FormData();
  form.append('fileItems[0].fileToUpload', new File([bytes], 'a.bin'));
  form.append('fileItems[0].path', path);
  return server.request('/files', { method: 'POST', headers: { ...storage(server), ...user.auth }, body: form });
}

describe('two projects on one server', () => {
  it('each has its own users: the same username in both, and a token of one is refused (401) by the other', async () => {
    const annA = await createUser(a, 'ann');
    const annB = await createUser(b, 'ann');
    expect(annA.userId).not.toBe(annB.userId);
    const me = (server: TestServer, user: TestUser) =>
      server.request('/auth/users/me', { headers: { ...users(server), ...user.auth } });
    expect(((await (await me(b, annB)).json()) as { userId: string }).userId).toBe(annB.userId);
    const refused = await me(a, annB);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: number }).code).toBe(ErrorCode.INVALID_TOKEN);
    expect((await me(b, annA)).status).toBe(401);
    const count = async (server: TestServer) =>
      (await (
        await server.request('/auth/users/get-number-of-user', {
          headers: { ...users(server), ...(await masterAuth(server)) },
        })
      ).json()) as unknown;
    expect(await count(a)).toEqual(await count(b));
  });

  it('each has its own rows', async () => {
    const user = await createUser(b, 'rows');
    const created = await b.request('/object-storage/classes/Thing', {
      method: 'POST',
      headers: { ...db(b), ...user.auth, ...json },
      body: JSON.stringify({ n: 1 }),
    });
    expect(created.status).toBe(201);
    const query = async (server: TestServer) => {
      const res = await server.request('/object-storage/classes/query/Thing?count=1', {
        method: 'POST',
        headers: { ...db(server), ...(await masterAuth(server)), ...json },
        body: '{}',
      });
      return ((await res.json()) as { count: number }).count;
    };
    expect(await query(b)).toBe(1);
    expect(await query(a)).toBe(0);
  });

  it('each has its own files, served from its own bucket, and its own upload limit', async () => {
    const userA = await createUser(a, 'files-a');
    const userB = await createUser(b, 'files-b');
    expect((await upload(a, userA, 'same', new Uint8Array([1, 1]))).status).toBe(200);
    expect((await upload(b, userB, 'same', new Uint8Array([2, 2, 2]))).status).toBe(200);
    const download = async (server: TestServer) => {
      // The bucket is the storage id unless the config names one.
      const res = await server.request(`/${server.config.bucket ?? server.config.storageId}/same/a.bin`);
      expect(res.status, await res.clone().text()).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };
    expect(await download(a)).toEqual(new Uint8Array([1, 1]));
    expect(await download(b)).toEqual(new Uint8Array([2, 2, 2]));
    // b takes 2 KiB uploads at most; a the default 100 MiB.
    const large = new Uint8Array(4096);
    expect((await upload(b, userB, 'large', large)).status).toBe(413);
    expect((await upload(a, userA, 'large', large)).status).toBe(200);
  });

  it('each has its own scores, outbox and clock', async () => {
    const player = await createUser(b, 'player');
    const event = { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 7 }] };
    expect(
      (
        await b.request('/game/events', {
          method: 'POST',
          headers: { ...game(b), ...player.auth, ...json },
          body: JSON.stringify(event),
        })
      ).status,
    ).toBe(200);
    const top = async (server: TestServer, user: TestUser) =>
      (
        (await (
          await server.request('/game/leaderboards/top/high-score?count=5', {
            headers: { ...game(server), ...user.auth },
          })
        ).json()) as { usersProfile: unknown[] }
      ).usersProfile;
    expect(await top(b, player)).toHaveLength(1);
    expect(await top(a, await createUser(a, 'player'))).toHaveLength(0);

    await b.patchConfig({ emailConfirmation: true });
    await b.request('/auth/users', {
      method: 'POST',
      headers: { ...users(b), ...json },
      body: JSON.stringify({ username: 'mailed', password: 'pw', email: 'mailed@example.com' }),
    });
    const outbox = async (server: TestServer) =>
      ((await (await server.admin('/__admin/outbox')).json()) as { messages: { link: string }[] }).messages;
    expect(await outbox(b)).toHaveLength(1);
    expect(await outbox(a)).toHaveLength(0);
    // The link names no project: it finds the project that sent it.
    expect((await a.request(new URL((await outbox(b))[0]!.link).pathname)).status).toBe(200);
    await b.patchConfig({ emailConfirmation: false });

    await b.admin('/__admin/clock', { method: 'POST', headers: json, body: JSON.stringify({ advanceSeconds: 3600 }) });
    const offset = async (server: TestServer) =>
      ((await (await server.admin('/__admin/clock')).json()) as { offsetSeconds: number }).offsetSeconds;
    expect(await offset(b)).toBe(3600);
    expect(await offset(a)).toBe(0);
  });

  it('a transcoder request, which carries only a token, acts in the project of its token', async () => {
    const owner = await createUser(b, 'transcoding');
    const res = await a.request('/metadata/preset', {
      method: 'POST',
      headers: { ...owner.auth, ...json },
      body: JSON.stringify({
        name: 'mine',
        outputs: [{ resolution: '144', videoBitrate: '100k', audioBitrate: '32k' }],
      }),
    });
    expect(res.status).toBe(201);
    const settings = async (server: TestServer) =>
      JSON.stringify(await (await server.admin('/__admin/transcoder/settings')).json());
    expect(await settings(b)).toContain('"mine"');
    expect(await settings(a)).not.toContain('"mine"');
  });

  it("a wrong id gets the default project's answer, as with one project", async () => {
    const res = await a.request('/auth/users', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': 'nobody', ...json },
      body: JSON.stringify({ username: 'x', password: 'pw' }),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: number }).code).toBe(ErrorCode.UNKNOWN_PROJECT);
    const game417 = await a.request('/game/leaderboards/top/high-score', {
      headers: { 'X-Service-Game-Id': 'nobody' },
    });
    expect(game417.status).toBe(417);
  });

  it('a project with a header word of its own is found by it', async () => {
    const acme = await createProject(a, { headerWord: 'Acme' });
    const res = await a.request('/auth/users', {
      method: 'POST',
      headers: { 'X-Acme-Authentication-Id': acme.config.authenticationId, ...json },
      body: JSON.stringify({ username: 'acme-user', password: 'pw' }),
    });
    expect(res.status).toBe(200);
    const count = await a.request('/auth/users/get-number-of-user', {
      headers: {
        'X-Acme-Authentication-Id': acme.config.authenticationId,
        'X-Acme-Authentication-Key': acme.config.masterKey,
      },
    });
    // The project answered under its word (a master token is needed: 401); the default project would miss its id (417).
    expect(count.status).toBe(401);
  });
});

describe("convert jobs of one project never wait for another project's", () => {
  let source: Server;
  let sourceUrl: string;
  const held: (() => void)[] = [];
  let released = false;
  beforeAll(async () => {
    // A source server that never answers: each job that starts stays running until the test lets it go.
    source = createServer((_req, res) => (released ? res.destroy() : held.push(() => res.destroy())));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    // Letting the running jobs go starts the queued ones, whose requests must not be held in turn: held, they kept the
    // server from closing until the job's first-byte timeout (30 s).
    released = true;
    for (const release of held) release();
    await new Promise((resolve) => source.close(resolve));
  });

  async function convert(server: TestServer, user: TestUser, n: number): Promise<void> {
    const headers = { ...user.auth, ...json };
    await server.request('/metadata/upload', {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'out', url: 'http://127.0.0.1:9/files' }),
    });
    await server.request('/metadata/preset', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'small',
        outputs: [{ resolution: '144', videoBitrate: '100k', audioBitrate: '32k' }],
      }),
    });
    const res = await server.request('/video/convert', {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `${sourceUrl}/${n}.mp4`, preset: 'small', upload: 'out' }),
    });
    expect(res.status).toBe(202);
  }

  const states = async (server: TestServer) =>
    ((await (await server.admin('/__admin/jobs')).json()) as { jobs: { state: string }[] }).jobs.map((j) => j.state);

  it("a project with every slot taken and jobs waiting leaves the other project's job to start at once", async () => {
    const busy = await createProject(a);
    const quiet = await createProject(a);
    const busyUsers = [await createUser(busy, 'u1'), await createUser(busy, 'u2'), await createUser(busy, 'u3')];
    for (const [i, user] of busyUsers.entries()) await convert(busy, user, i);
    await convert(busy, busyUsers[0]!, 3);
    await expect.poll(() => states(busy)).toEqual(['running', 'running', 'queued', 'queued']);
    await convert(quiet, await createUser(quiet, 'q'), 9);
    await expect.poll(() => states(quiet)).toEqual(['running']);
  });
});
