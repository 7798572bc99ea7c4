// `@basekit/mock-server/testing`: createTestProject against a real server, and that the entry stays browser-safe.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestProject, type TestProject } from '../src/testing.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const adminKey = () => server.config.masterKey;

/** Registers `username` in a project through its client options, as the SDK would send it. */
function register(project: TestProject, username: string): Promise<Response> {
  const { baseUrl, authenticationId } = project.clientOptions;
  return fetch(`${baseUrl}/auth/users`, {
    method: 'POST',
    headers: { 'X-Service-Authentication-Id': authenticationId, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password: `pw-${username}` }),
  });
}

describe('createTestProject', () => {
  it('creates a project with the given config keys and generated ids, and client options that reach it', async () => {
    const project = await createTestProject({
      url: `${server.url}/`,
      adminKey: adminKey(),
      config: { accessTokenTtlSeconds: 60 },
    });
    const { config } = project;
    expect(project.id).toBe(config.authenticationId);
    expect(project.url).toBe(server.url);
    expect(config.accessTokenTtlSeconds).toBe(60);
    expect(config.authenticationId).not.toBe(server.config.authenticationId);
    expect(project.clientOptions).toEqual({
      baseUrl: server.url,
      authenticationId: config.authenticationId,
      clientKey: config.clientKey,
      objectStorageId: config.objectStorageId,
      storageId: config.storageId,
      gameId: config.gameId,
      bucket: config.bucket,
      headerWord: 'Service',
    });
    expect((await register(project, 'ann')).status).toBe(200);
    await project.delete();
  });

  it('gives each project its own users; admin() reaches its own admin API; reset() empties it', async () => {
    const [a, b] = await Promise.all([
      createTestProject({ url: server.url, adminKey: adminKey() }),
      createTestProject({ url: server.url, adminKey: adminKey() }),
    ]);
    expect((await register(a, 'ann')).status).toBe(200);
    expect((await register(b, 'ann')).status).toBe(200);
    const listed = async (project: TestProject) =>
      ((await (await project.admin('/__admin/config')).json()) as { authenticationId: string }).authenticationId;
    expect([await listed(a), await listed(b)]).toEqual([a.id, b.id]);
    // The call's own headers win over the master headers, whatever their case.
    expect((await a.admin('/__admin/config', { headers: { 'x-service-authentication-key': 'wrong' } })).status).toBe(
      403,
    );

    await a.reset();
    expect((await register(a, 'ann')).status).toBe(200);
    expect((await register(b, 'ann')).status).not.toBe(200);
    await Promise.all([a.delete(), b.delete()]);
  });

  it('delete() removes the project: its ids are refused, and a second delete fails', async () => {
    const project = await createTestProject({ url: server.url, adminKey: adminKey() });
    await project.delete();
    expect((await register(project, 'ann')).status).toBe(404);
    await expect(project.delete()).rejects.toThrow(`delete of project ${project.id} failed: 404`);
  });

  it('fails with the server answer when the admin key is wrong', async () => {
    await expect(createTestProject({ url: server.url, adminKey: 'not-the-key' })).rejects.toThrow(
      /creating a project on http:\/\/\S+ failed: 403/,
    );
  });

  it("sends the admin key under the server's header word, and the project's under its own", async () => {
    const acme = await startTestServer({ headerWord: 'Acme' });
    try {
      const project = await createTestProject({ url: acme.url, adminKey: acme.config.masterKey, headerWord: 'Acme' });
      expect(project.clientOptions.headerWord).toBe('Acme');
      expect(Object.keys(project.masterHeaders)).toEqual(['X-Acme-Authentication-Id', 'X-Acme-Authentication-Key']);
      expect((await project.admin('/__admin/config')).status).toBe(200);
    } finally {
      await acme.close();
    }
  });
});

it('is browser-safe: the entry bundles for browsers with no Node built-in', async () => {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/testing.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  expect(result.errors).toEqual([]);
  expect(result.outputFiles[0]!.text).not.toMatch(/\bnode:/);
});
