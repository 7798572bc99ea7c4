// `@basekit/mock-server/testing`: createTestProject against a real server, and that the entry stays browser-safe.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '@basekit/sdk';
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

  it('gives each project its own users and a typed admin client of its own; reset() empties it', async () => {
    const [a, b] = await Promise.all([
      createTestProject({ url: server.url, adminKey: adminKey() }),
      createTestProject({ url: server.url, adminKey: adminKey() }),
    ]);
    expect((await register(a, 'ann')).status).toBe(200);
    expect((await register(b, 'ann')).status).toBe(200);
    expect([(await a.admin.config.get()).authenticationId, (await b.admin.config.get()).authenticationId]).toEqual([
      a.id,
      b.id,
    ]);
    await a.admin.clock.advance(60);
    expect([(await a.admin.clock.read()).offsetSeconds, (await b.admin.clock.read()).offsetSeconds]).toEqual([60, 0]);

    await a.reset();
    expect((await register(a, 'ann')).status).toBe(200);
    expect((await register(b, 'ann')).status).not.toBe(200);
    await Promise.all([a.delete(), b.delete()]);
  });

  it("delete() removes the project: its ids are refused, and a second delete fails with the SDK's NotFoundError", async () => {
    const project = await createTestProject({ url: server.url, adminKey: adminKey() });
    await project.delete();
    expect((await register(project, 'ann')).status).toBe(404);
    const again = await project.delete().catch((error: unknown) => error);
    expect(again).toBeInstanceOf(NotFoundError);
    expect(again).toMatchObject({ code: 160, operation: 'DELETE /__admin/projects/{projectId}' });
  });

  it("fails with the SDK's ForbiddenError when the admin key is wrong", async () => {
    const refused = await createTestProject({ url: server.url, adminKey: 'not-the-key' }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect(refused).toMatchObject({ status: 403, code: 119, operation: 'POST /__admin/projects' });
  });

  it("sends the admin key under the server's header word, and the project's under its own", async () => {
    const acme = await startTestServer({ headerWord: 'Acme' });
    try {
      const project = await createTestProject({ url: acme.url, adminKey: acme.config.masterKey, headerWord: 'Acme' });
      expect(project.clientOptions.headerWord).toBe('Acme');
      expect(Object.keys(project.masterHeaders)).toEqual(['X-Acme-Authentication-Id', 'X-Acme-Authentication-Key']);
      expect((await project.admin.config.get()).authenticationId).toBe(project.id);
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
    conditions: ['@basekit/source'],
  });
  expect(result.errors).toEqual([]);
  expect(result.outputFiles[0]!.text).not.toMatch(/\bnode:/);
  // The SDK's admin client is what it calls the server with.
  expect(result.outputFiles[0]!.text).toContain('/__admin/projects/{projectId}/reset');
});
