import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, ErrorCode, type Config } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';
import { createProject, postProject, serverAdmin } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ maxProjects: 5 });
});
afterAll(() => server.close());
beforeEach(async () => {
  // Every project but the default one goes, so each test starts from the server alone.
  for (const { id } of await list())
    if (id !== server.config.authenticationId) await call('DELETE', `/__admin/projects/${id}`);
});

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return server.request(path, {
    method,
    headers: { ...serverAdmin(server), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

async function list(): Promise<{ id: string; config: Config }[]> {
  return ((await (await call('GET', '/__admin/projects')).json()) as { projects: { id: string; config: Config }[] })
    .projects;
}

async function expectError(res: Response, status: number, code: number): Promise<void> {
  const body = (await res.json()) as { code: number; error: string };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  expect(body.error).toEqual(expect.any(String));
}

describe('POST /__admin/projects', () => {
  it('creates a project with ids and keys of its own, the rest like the default project, and answers its whole config', async () => {
    const res = await postProject(server, {});
    expect(res.status).toBe(201);
    const { id, config } = (await res.json()) as { id: string; config: Config };
    expect(id).toBe(config.authenticationId);
    expect(config).toMatchObject({
      objectStorageId: `${id}-db`,
      storageId: `${id}-storage`,
      gameId: `${id}-game`,
      bucket: `${id}-storage`,
    });
    for (const key of ['authenticationId', 'clientKey', 'masterKey'] as const)
      expect(config[key]).not.toBe(server.engine.project.config[key]);
    expect(config.events).toEqual(server.engine.project.config.events);
    expect(config.leaderboards).toEqual(server.engine.project.config.leaderboards);
    expect(config.dataDir).toBeUndefined();
    expect((await list()).map((p) => p.id)).toEqual([server.config.authenticationId, id]);
  });

  it('takes any config key given, and the given ids and keys', async () => {
    const res = await postProject(server, {
      authenticationId: 'given',
      masterKey: 'given-master',
      emailConfirmation: true,
      maxUploadBytes: 1234,
      events: [{ name: 'win', fields: ['n'] }],
    });
    const { config } = (await res.json()) as { config: Config };
    expect(config).toMatchObject({
      authenticationId: 'given',
      masterKey: 'given-master',
      emailConfirmation: true,
      maxUploadBytes: 1234,
      events: [{ name: 'win', fields: ['n'] }],
      leaderboards: [],
    });
  });

  it('refuses an id another project holds (409), a bad config (400), a server key (400) and more than maxProjects (400), changing nothing', async () => {
    await createProject(server, { authenticationId: 'first' });
    const before = await list();
    await expectError(await postProject(server, { authenticationId: 'first' }), 409, ErrorCode.PROJECT_ID_TAKEN);
    await expectError(await postProject(server, { gameId: server.config.gameId }), 409, ErrorCode.PROJECT_ID_TAKEN);
    await expectError(await postProject(server, { bucket: 'first-storage' }), 409, ErrorCode.PROJECT_ID_TAKEN);
    await expectError(await postProject(server, { maxUploadBytes: -1 }), 400, ErrorCode.VALIDATION_FAILED);
    await expectError(await postProject(server, { nonsense: true }), 400, ErrorCode.VALIDATION_FAILED);
    await expectError(await postProject(server, { dataDir: '/tmp/x' }), 400, ErrorCode.SERVER_KEY);
    await expectError(await postProject(server, []), 400, ErrorCode.INVALID_JSON);
    expect(await list()).toEqual(before);
    for (let i = (await list()).length; i < 5; i++) await createProject(server);
    await expectError(await postProject(server, {}), 400, ErrorCode.TOO_MANY_PROJECTS);
    expect(await list()).toHaveLength(5);
  });

  it('refuses a master key another project holds (409, code 22), at creation and in a config change, changing nothing', async () => {
    const first = await createProject(server, { masterKey: 'first-master' });
    const second = await createProject(server);
    const before = await list();
    for (const masterKey of ['first-master', server.config.masterKey])
      await expectError(await postProject(server, { masterKey }), 409, ErrorCode.MASTER_KEY_TAKEN);
    const { authenticationId: id } = second.config;
    await expectError(
      await call('PATCH', `/__admin/projects/${id}`, { masterKey: 'first-master' }),
      409,
      ErrorCode.MASTER_KEY_TAKEN,
    );
    const ownPatch = await second.admin('/__admin/config', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ masterKey: server.config.masterKey }),
    });
    await expectError(ownPatch, 409, ErrorCode.MASTER_KEY_TAKEN);
    await expectError(
      await server.admin('/__admin/config', { method: 'PATCH', body: JSON.stringify({ masterKey: 'first-master' }) }),
      409,
      ErrorCode.MASTER_KEY_TAKEN,
    );
    expect(await list()).toEqual(before);
    // A request that carries only the key still reaches the project whose key it is.
    const config = await first.admin('/__admin/config');
    expect(((await config.json()) as Config).authenticationId).toBe(first.config.authenticationId);
    // A project may keep (re-send) its own master key.
    expect((await call('PATCH', `/__admin/projects/${id}`, { masterKey: second.config.masterKey })).status).toBe(200);
  });

  it('refuses to start on a config whose projects share a master key, naming the project', async () => {
    const project = (id: string) => ({
      ...DEFAULT_CONFIG,
      authenticationId: id,
      objectStorageId: `${id}-db`,
      storageId: `${id}-st`,
      gameId: `${id}-game`,
    });
    await expect(startTestServer({ projects: [project('one')] })).rejects.toThrow(
      /project "one" of the config: this masterKey is the master key of project "dev-auth-id"/,
    );
  });

  it('needs the server admin key: another project master key is refused (403)', async () => {
    const other = await createProject(server);
    const res = await server.request('/__admin/projects', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Key': other.config.masterKey },
      body: '{}',
    });
    await expectError(res, 403, ErrorCode.OPERATION_FORBIDDEN);
    await expectError(await server.request('/__admin/projects'), 403, ErrorCode.OPERATION_FORBIDDEN);
  });
});

describe('/__admin/projects/{id}', () => {
  it('reads, changes and deletes a project; an unknown id is a 404', async () => {
    const project = await createProject(server);
    const { authenticationId: id } = project.config;
    expect(await (await call('GET', `/__admin/projects/${id}`)).json()).toEqual({
      id,
      config: expect.objectContaining({ authenticationId: id }),
    });
    const patched = (await (await call('PATCH', `/__admin/projects/${id}`, { emailConfirmation: true })).json()) as {
      config: Config;
    };
    expect(patched.config.emailConfirmation).toBe(true);
    await expectError(
      await call('PATCH', `/__admin/projects/${id}`, { gameId: server.config.gameId }),
      409,
      ErrorCode.PROJECT_ID_TAKEN,
    );
    await expectError(await call('PATCH', `/__admin/projects/${id}`, { maxProjects: 3 }), 400, ErrorCode.SERVER_KEY);
    const ownPatch = (body: unknown) =>
      project.admin('/__admin/config', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    await expectError(await ownPatch({ dataDir: '/elsewhere' }), 400, ErrorCode.SERVER_KEY);
    await expectError(await ownPatch({ maxProjects: 3 }), 400, ErrorCode.SERVER_KEY);
    await expectError(
      await server.admin('/__admin/config', { method: 'PATCH', body: JSON.stringify({ projects: [] }) }),
      400,
      ErrorCode.SERVER_KEY,
    );
    await expectError(
      await server.admin('/__admin/config', {
        method: 'PATCH',
        body: JSON.stringify({ gameId: project.config.gameId }),
      }),
      409,
      ErrorCode.PROJECT_ID_TAKEN,
    );
    await expectError(
      await call('PATCH', `/__admin/projects/${id}`, { accessTokenTtlSeconds: 'soon' }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
    expect(((await (await call('GET', `/__admin/projects/${id}`)).json()) as { config: Config }).config.gameId).toBe(
      project.config.gameId,
    );
    expect((await call('DELETE', `/__admin/projects/${id}`)).status).toBe(204);
    await expectError(await call('GET', `/__admin/projects/${id}`), 404, ErrorCode.PROJECT_NOT_FOUND);
    await expectError(await call('DELETE', `/__admin/projects/${id}`), 404, ErrorCode.PROJECT_NOT_FOUND);
  });

  it('refuses to delete the default project (409)', async () => {
    await expectError(
      await call('DELETE', `/__admin/projects/${server.config.authenticationId}`),
      409,
      ErrorCode.DEFAULT_PROJECT,
    );
    expect((await list())[0]!.id).toBe(server.config.authenticationId);
  });

  it('a changed authentication id moves the project to its new id', async () => {
    const project = await createProject(server);
    const res = await call('PATCH', `/__admin/projects/${project.config.authenticationId}`, {
      authenticationId: 'renamed',
    });
    expect(((await res.json()) as { id: string }).id).toBe('renamed');
    expect((await call('GET', '/__admin/projects/renamed')).status).toBe(200);
    await expectError(
      await call('GET', `/__admin/projects/${project.config.authenticationId}`),
      404,
      ErrorCode.PROJECT_NOT_FOUND,
    );
  });

  it('frees the ids and master key a project held once it changes them or is deleted, and keeps a header word two projects share', async () => {
    const first = await createProject(server, { headerWord: 'Acme' });
    const second = await createProject(server, { headerWord: 'Acme' });
    const { authenticationId: id, gameId, masterKey } = first.config;
    const moved = { gameId: 'moved-game', masterKey: 'moved-master-key-0123456789' };
    expect((await call('PATCH', `/__admin/projects/${id}`, moved)).status).toBe(200);
    // The old ones are free, the new ones taken.
    await expectError(await postProject(server, { gameId: moved.gameId }), 409, ErrorCode.PROJECT_ID_TAKEN);
    await expectError(await postProject(server, { masterKey: moved.masterKey }), 409, ErrorCode.MASTER_KEY_TAKEN);
    const third = await createProject(server, { gameId, masterKey });
    expect(third.config.gameId).toBe(gameId);

    expect((await call('DELETE', `/__admin/projects/${id}`)).status).toBe(204);
    const fourth = await createProject(server, { authenticationId: id, ...moved });
    expect(fourth.config).toMatchObject({ authenticationId: id, ...moved });
    // The second project is still found under the word the deleted one shared with it.
    const res = await server.request('/auth/users/get-number-of-user', {
      headers: {
        'X-Acme-Authentication-Id': second.config.authenticationId,
        'X-Acme-Authentication-Key': second.config.masterKey,
      },
    });
    expect(res.status).toBe(401); // its own answer (a master token is needed); the default project's would be 417
  });

  it('resets, exports and imports one project, leaving the others as they are', async () => {
    const project = await createProject(server);
    const { authenticationId: id } = project.config;
    await createUser(project, 'ann');
    await createUser(server, 'bob');
    const state = await (await call('GET', `/__admin/projects/${id}/state`)).json();
    expect(JSON.stringify(state)).toContain('ann');
    expect(JSON.stringify(state)).not.toContain('bob');
    expect((await call('POST', `/__admin/projects/${id}/reset`)).status).toBe(200);
    expect(JSON.stringify(await (await call('GET', `/__admin/projects/${id}/state`)).json())).not.toContain('ann');
    expect((await call('PUT', `/__admin/projects/${id}/state`, state)).status).toBe(200);
    expect(JSON.stringify(await (await call('GET', `/__admin/projects/${id}/state`)).json())).toContain('ann');
    expect(JSON.stringify(await (await server.admin('/__admin/state')).json())).toContain('bob');
    await server.reset();
  });
});
