import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '@basekit/sdk';
import { createAdminClient } from '@basekit/sdk/admin';
import { createHandlers } from '../src/index.js';
import {
  BASE,
  authenticationId,
  gameId,
  json,
  login,
  masterKey,
  objectStorageId,
  signUp,
  storageId,
  topScores,
} from './support.js';
import { PNG, SEED } from './seed-fixture.js';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/** Makes msw serve `backend` (replacing the handlers of the test before). */
function serving(backend: ReturnType<typeof createHandlers>) {
  server.resetHandlers(...backend);
  return backend;
}

describe('seeding', () => {
  it('makes users that log in, rows with their ids and times, files and scores', async () => {
    serving(createHandlers({ baseUrl: BASE, seed: SEED }));
    const ann = await login(BASE, 'ann', 'pw-ann');
    const me = await fetch(`${BASE}/auth/users/me`, {
      headers: { 'X-Service-Authentication-Id': authenticationId, ...ann },
    });
    expect(await me.json()).toMatchObject({ userId: 'user-ann', firstName: 'Ann', team: 'red', active: true });
    await login(BASE, 'bob', 'pw-bob');

    const note = await fetch(`${BASE}/object-storage/classes/Note/note1`, {
      headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...ann },
    });
    expect(await note.json()).toMatchObject({
      _id: 'note1',
      title: 'first',
      createdAt: '2024-01-02T03:04:05.000Z',
      updatedAt: '2024-01-02T03:04:05.000Z',
    });
    const bob = await login(BASE, 'bob', 'pw-bob');
    // The seeded ACL holds: only ann reads note1.
    expect(
      (
        await fetch(`${BASE}/object-storage/classes/Note/note1`, {
          headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...bob },
        })
      ).status,
    ).toBe(403);
    const query = await fetch(
      `${BASE}/object-storage/classes/query/Note`,
      json(
        'POST',
        { due: { $gt: { __type: 'Date', iso: '2024-06-01T00:00:00.000Z' } } },
        { 'X-Service-Object-Storage-Id': objectStorageId, ...bob },
      ),
    );
    expect(((await query.json()) as { results: { _id: string }[] }).results.map((r) => r._id)).toEqual(['note2']);

    const file = await fetch(`${BASE}/${storageId}/photos/dot.png`);
    expect({ type: file.headers.get('content-type'), bytes: new Uint8Array(await file.arrayBuffer()) }).toEqual({
      type: 'image/png',
      bytes: PNG,
    });
    expect(await topScores(BASE, ann)).toEqual(['bob:70', 'ann:40']);
  });

  it('adds to the state later, and scores may name users seeded before', async () => {
    const backend = serving(createHandlers({ baseUrl: BASE, seed: SEED }));
    await backend.seed({
      users: [{ username: 'cy', password: 'pw-cy' }],
      scores: [
        { username: 'ann', event: 'match_end', values: { score: 90 } },
        { username: 'cy', event: 'match_end', values: { score: 50 } },
      ],
    });
    expect(await topScores(BASE, await login(BASE, 'cy', 'pw-cy'))).toEqual(['ann:90', 'bob:70', 'cy:50']);
    expect((await backend.rows('Note')).map((r) => r._id)).toEqual(['note1', 'note2']);
  });

  it('is all or nothing, and names the entry the service refused', async () => {
    const backend = serving(createHandlers({ baseUrl: BASE, seed: SEED }));
    const before = await backend.state();
    await expect(
      backend.seed({
        users: [
          { username: 'dan', password: 'x' },
          { username: 'ann', password: 'again' },
        ],
      }),
    ).rejects.toThrow(/seed users\[1\] "ann".*409/);
    // The error is the SDK's, as the service's answer makes it.
    expect(await backend.seed({ users: [{ username: 'ann', password: 'x' }] }).catch((e: unknown) => e)).toBeInstanceOf(
      ConflictError,
    );
    await expect(backend.seed({ tables: { Note: [{ _id: 'note1', title: 'again' }] } })).rejects.toThrow(
      /note1.*already has a row/,
    );
    await expect(
      backend.seed({ scores: [{ username: 'zed', event: 'match_end', values: { score: 1 } }] }),
    ).rejects.toThrow(/"zed".*password is unknown/);
    const after = await backend.state();
    expect({ ...after, clockOffsetMs: 0 }).toEqual({ ...before, clockOffsetMs: 0 });
  });

  it('rejects `ready` when the initial seed does not fit', async () => {
    const backend = createHandlers({ baseUrl: BASE, seed: { tables: { 'bad name!': [{}] } } });
    await expect(backend.ready).rejects.toThrow(/seed tables\.bad name!\[0\]: the service answered 400/);
  });

  it('activates seeded users of a project that confirms e-mail, unless asked not to', async () => {
    const config = {
      authenticationId,
      clientKey: 'c',
      masterKey,
      objectStorageId,
      storageId,
      gameId,
      emailConfirmation: true,
    };
    const backend = serving(
      createHandlers({
        baseUrl: BASE,
        config,
        seed: {
          users: [
            { username: 'ann', password: 'pw', email: 'ann@example.com' },
            { username: 'new', password: 'pw', email: 'new@example.com', active: false },
          ],
        },
      }),
    );
    const mails = await backend.outbox();
    expect(mails.map((m) => m.to)).toEqual(['new@example.com']);
    expect(mails[0]!.link).toMatch(new RegExp(`^${BASE}/auth/confirm/`));
    const loginAs = (username: string) =>
      fetch(`${BASE}/auth/login`, {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': 'c' },
        body: new URLSearchParams({ username, password: 'pw' }),
      });
    expect((await loginAs('ann')).status).toBe(200);
    expect((await loginAs('new')).status).toBe(401);
    expect((await fetch(mails[0]!.link!)).status).toBe(200);
    expect((await loginAs('new')).status).toBe(200);
  });
});

describe('controls', () => {
  it('resets to the seed: state, clock and config', async () => {
    const backend = serving(createHandlers({ baseUrl: BASE, seed: SEED }));
    const { auth } = await signUp(BASE, 'eve');
    await fetch(`${BASE}/object-storage/classes/Note/note2`, {
      method: 'DELETE',
      headers: { 'X-Service-Object-Storage-Id': objectStorageId, ...auth },
    });
    await backend.clock.advance(3600);
    await fetch(
      `${BASE}/__admin/config`,
      json('PATCH', { services: { leaderboards: false } }, { 'X-Service-Authentication-Key': masterKey }),
    );

    await backend.reset();
    expect((await backend.rows('Note')).map((r) => r._id)).toEqual(['note1', 'note2']);
    await expect(login(BASE, 'eve', 'pw-eve')).rejects.toThrow(/401/);
    expect(await topScores(BASE, await login(BASE, 'ann', 'pw-ann'))).toEqual(['bob:70', 'ann:40']);
    expect(Math.abs((await backend.clock.now()).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('reset() of a backend without a seed empties it and puts its config back', async () => {
    const backend = serving(createHandlers({ baseUrl: BASE }));
    await signUp(BASE, 'ann');
    await fetch(
      `${BASE}/__admin/config`,
      json('PATCH', { accessTokenTtlSeconds: 60 }, { 'X-Service-Authentication-Key': masterKey }),
    );
    await backend.reset();
    expect((await backend.state()).areas['users']).toMatchObject({ users: [] });
    expect(backend.engine.project.config.accessTokenTtlSeconds).toBe(7199);
  });

  it("serves the whole admin API to the SDK's typed admin client, as the reference server does", async () => {
    serving(createHandlers({ baseUrl: BASE, config: { inspectorLimit: 10 } }));
    const admin = createAdminClient({ baseUrl: BASE, masterKey });
    await admin.config.update({ emailConfirmation: true });
    const registered = await fetch(
      `${BASE}/auth/users`,
      json(
        'POST',
        { username: 'ann', password: 'pw', email: 'ann@example.com' },
        { 'X-Service-Authentication-Id': authenticationId },
      ),
    );
    const { userId } = (await registered.json()) as { userId: string };
    const [mail] = await admin.outbox();
    expect(mail?.to).toBe('ann@example.com');
    const { requests } = await admin.requests.list({ area: 'users' });
    expect(requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /auth/users 200']);
    expect(await admin.users.activate(userId)).toMatchObject({ userId, active: true });
  });

  it('moves the clock: access tokens expire', async () => {
    const backend = serving(createHandlers({ baseUrl: BASE }));
    const { auth } = await signUp(BASE, 'ann');
    const me = () =>
      fetch(`${BASE}/auth/users/me`, { headers: { 'X-Service-Authentication-Id': authenticationId, ...auth } });
    expect((await me()).status).toBe(200);
    const now = await backend.clock.now();
    const later = await backend.clock.advance(7200);
    expect(later.getTime() - now.getTime()).toBeGreaterThanOrEqual(7200_000);
    expect((await me()).status).toBe(401);
  });
});
