/**
 * `@basekit/mock-server/testing`: a fresh project on a running reference server, for one test file, worker or suite.
 * Browser-safe on purpose (fetch only, no Node import, never the server itself), so Playwright fixtures, browser
 * tests and Node tests can all use it.
 *
 * @example
 * import { createTestProject } from '@basekit/mock-server/testing';
 * const project = await createTestProject({ url: 'http://127.0.0.1:3000', adminKey: 'dev-master-key' });
 *
 * @module @basekit/mock-server/testing
 */
import type { Config, ConfigInput } from '@basekit/engine';

/**
 * What {@link createTestProject} needs.
 *
 * @example
 * const options: TestProjectOptions = { url: server.url, adminKey: 'dev-master-key', config: { emailConfirmation: true } };
 * const project = await createTestProject(options);
 */
export interface TestProjectOptions {
  /** The server's address, `http://HOST:PORT`. */
  url: string;
  /** The server's admin key: the master key of its default project (the one of its config file). */
  adminKey: string;
  /** Config keys of the new project (see `config.schema.json`); ids and keys left out are generated. */
  config?: Partial<ConfigInput>;
  /** The word of the server's header names, `X-<word>-Authentication-Key` (`Service` by default). */
  headerWord?: string;
}

/**
 * What a client needs to talk to a project: the options of the SDK's `createClient`, as they are.
 *
 * @example
 * const client = createClient(project.clientOptions satisfies TestClientOptions);
 */
export interface TestClientOptions {
  baseUrl: string;
  authenticationId: string;
  clientKey: string;
  objectStorageId: string;
  storageId: string;
  gameId: string;
  bucket: string;
  headerWord: string;
}

/**
 * A project of its own on a running server.
 *
 * @example
 * const project: TestProject = await createTestProject({ url, adminKey });
 * beforeEach(() => project.reset());
 * await project.admin('/__admin/clock', { method: 'POST', body: JSON.stringify({ advanceSeconds: 3600 }) });
 * afterAll(() => project.delete());
 */
export interface TestProject {
  /** The project's id: its authentication id. */
  id: string;
  /** The server's address. */
  url: string;
  /** The project's whole config as the server resolved it: ids, keys and every default. */
  config: Config;
  /** Options for the SDK's `createClient(project.clientOptions)`: the client key, never the master key. */
  clientOptions: TestClientOptions;
  /** The headers that sign a request in as the project's master (authentication id and master key). */
  masterHeaders: Record<string, string>;
  /** A request to the server with the project's master headers, for the admin API (`/__admin/clock` …). */
  admin(path: string, init?: RequestInit): Promise<Response>;
  /** Back to an empty project (its start config, no users, rows, files, jobs or scores). */
  reset(): Promise<void>;
  /** Deletes the project and everything in it; its ids and keys are refused from then on. */
  delete(): Promise<void>;
}

/**
 * Creates a project of its own on a running reference server (`POST /__admin/projects`), so parallel tests never
 * see each other's users, rows, files or scores. One server, many projects: create one per test file, worker or
 * test, and delete it when done.
 *
 * @example
 * import { createClient } from '@basekit/sdk';
 * import { createTestProject } from '@basekit/mock-server/testing';
 *
 * const project = await createTestProject({ url: 'http://127.0.0.1:3000', adminKey: 'dev-master-key' });
 * const client = createClient(project.clientOptions);
 * await client.auth.register({ username: 'ann', password: 'pw' });
 * await project.delete();
 *
 * @example
 * // Any config key: a project with e-mail confirmation and a leaderboard.
 * const project = await createTestProject({
 *   url,
 *   adminKey,
 *   config: { emailConfirmation: true, events: [{ name: 'win', fields: ['score'] }], leaderboards: [{ id: 'top', fields: [{ event: 'win', field: 'score' }] }] },
 * });
 */
export async function createTestProject({
  url,
  adminKey,
  config = {},
  headerWord = 'Service',
}: TestProjectOptions): Promise<TestProject> {
  const base = url.replace(/\/+$/, '');
  const serverAdmin = { [`X-${headerWord}-Authentication-Key`]: adminKey };
  const res = await fetch(`${base}/__admin/projects`, {
    method: 'POST',
    headers: { ...serverAdmin, 'Content-Type': 'application/json' },
    body: JSON.stringify(config),
  });
  if (res.status !== 201) throw new Error(`creating a project on ${base} failed: ${res.status} ${await res.text()}`);
  const { id, config: resolved } = (await res.json()) as { id: string; config: Config };
  // The project answers the first of its header words; clients of it send that one.
  const word = resolved.headerWord[0] ?? 'Service';
  const masterHeaders = {
    [`X-${word}-Authentication-Id`]: resolved.authenticationId,
    [`X-${word}-Authentication-Key`]: resolved.masterKey,
  };
  const projectPath = `${base}/__admin/projects/${encodeURIComponent(id)}`;
  const expectOk = async (response: Response, what: string) => {
    if (!response.ok) throw new Error(`${what} of project ${id} failed: ${response.status} ${await response.text()}`);
  };
  return {
    id,
    url: base,
    config: resolved,
    clientOptions: {
      baseUrl: base,
      authenticationId: resolved.authenticationId,
      clientKey: resolved.clientKey,
      objectStorageId: resolved.objectStorageId,
      storageId: resolved.storageId,
      gameId: resolved.gameId,
      bucket: resolved.bucket,
      headerWord: word,
    },
    masterHeaders,
    admin: (path, init = {}) => {
      // The call's own headers win, compared without regard to case.
      const headers = new Headers(masterHeaders);
      for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
      return fetch(`${base}${path}`, { ...init, headers });
    },
    reset: async () => expectOk(await fetch(`${projectPath}/reset`, { method: 'POST', headers: serverAdmin }), 'reset'),
    delete: async () => expectOk(await fetch(projectPath, { method: 'DELETE', headers: serverAdmin }), 'delete'),
  };
}
