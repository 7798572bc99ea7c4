import type { Config, ConfigInput } from '@basekit/engine';
import { developmentConfig } from '../../src/config.js';
import { type TestServer, testServer } from '../support/server.js';

/** The server admin key header of the default project of `server` (its master key). */
export const serverAdmin = (server: TestServer) => ({ 'X-Service-Authentication-Key': server.config.masterKey });

/** `POST /__admin/projects` with `body`; the answer as it came. */
export function postProject(server: TestServer, body: unknown): Promise<Response> {
  return server.request('/__admin/projects', {
    method: 'POST',
    headers: { ...serverAdmin(server), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * A project created on `server`, seen as a `TestServer` of its own (the same address, the project's config), so the
 * helpers written for one server (users, tokens, admin calls) work on it unchanged.
 */
export async function createProject(server: TestServer, body: Partial<ConfigInput> = {}): Promise<TestServer> {
  const res = await postProject(server, body);
  const json = (await res.json()) as { id: string; config: Config };
  if (res.status !== 201) throw new Error(`creating a project failed: ${res.status} ${JSON.stringify(json)}`);
  // Its admin calls carry its master key, by which the server finds the project.
  return { ...server, ...testServer({ ...server, config: json.config as ConfigInput }) };
}

/** A second project's config beside the development one (its own ids and keys), for a server of two projects. */
export const secondProject = (): ConfigInput => ({
  ...developmentConfig(),
  authenticationId: 'p2',
  clientKey: 'p2-client',
  masterKey: 'p2-master',
  objectStorageId: 'p2-db',
  storageId: 'p2-storage',
  gameId: 'p2-game',
});
