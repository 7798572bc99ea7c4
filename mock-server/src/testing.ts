/**
 * `@basekit/mock-server/testing`: a fresh project on a running reference server, for one test file, worker or suite.
 * Browser-safe on purpose (the SDK's admin client, fetch only, never the server itself), so Playwright fixtures,
 * browser tests and Node tests can all use it.
 *
 * @example
 * import { createTestProject } from '@basekit/mock-server/testing';
 * const project = await createTestProject({ url: 'http://127.0.0.1:3000', adminKey: 'dev-master-key' });
 *
 * @module @basekit/mock-server/testing
 */
import { withHeaderWord, type ClientOptions } from '@basekit/sdk';
import { createAdminClient, type AdminClient, type Config, type ConfigKeys } from '@basekit/sdk/admin';

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
  config?: ConfigKeys;
  /** The word of the server's header names, `X-<word>-Authentication-Key` (`Service` by default). */
  headerWord?: string;
}

/**
 * What a client needs to talk to a project: the options of the SDK's `createClient`, as they are.
 *
 * @example
 * const client = createClient(project.clientOptions satisfies TestClientOptions);
 */
export type TestClientOptions = Required<
  Pick<
    ClientOptions,
    'baseUrl' | 'authenticationId' | 'clientKey' | 'objectStorageId' | 'storageId' | 'gameId' | 'bucket' | 'headerWord'
  >
>;

/**
 * A project of its own on a running server.
 *
 * @example
 * const project: TestProject = await createTestProject({ url, adminKey });
 * beforeEach(() => project.reset());
 * await project.admin.clock.advance(3600);
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
  /** The project's own admin API, typed (`@basekit/sdk/admin`): `project.admin.clock.advance(60)`, `project.admin.outbox()` … */
  admin: AdminClient;
  /** Back to an empty project (its start config, no users, rows, files, jobs or scores). */
  reset(): Promise<void>;
  /** Deletes the project and everything in it; its ids and keys are refused from then on. */
  delete(): Promise<void>;
}

/**
 * Creates a project of its own on a running reference server (`POST /__admin/projects`), so parallel tests never
 * see each other's users, rows, files or scores. One server, many projects: create one per test file, worker or
 * test, and delete it when done. Fails with the SDK's errors (`ForbiddenError` for a wrong admin key, `NetworkError`
 * when nothing answers at `url`).
 *
 * @example
 * import { createClient } from '@basekit/sdk';
 * import { createTestProject } from '@basekit/mock-server/testing';
 *
 * const project = await createTestProject({ url: 'http://127.0.0.1:3000', adminKey: 'dev-master-key' });
 * const client = createClient(project.clientOptions);
 * await client.auth.register({ username: 'ann', password: 'pw' });
 * await project.admin.clock.advance(7200); // ann's access token has expired
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
  config: keys = {},
  headerWord = 'Service',
}: TestProjectOptions): Promise<TestProject> {
  const baseUrl = url.replace(/\/+$/, '');
  const server = createAdminClient({ baseUrl, masterKey: adminKey, headerWord });
  const { id, config } = await server.projects.create(keys);
  // The project answers the first of its header words; clients of it send that one.
  const word = config.headerWord[0] ?? 'Service';
  return {
    id,
    url: baseUrl,
    config,
    clientOptions: {
      baseUrl,
      authenticationId: config.authenticationId,
      clientKey: config.clientKey,
      objectStorageId: config.objectStorageId,
      storageId: config.storageId,
      gameId: config.gameId,
      bucket: config.bucket,
      headerWord: word,
    },
    masterHeaders: {
      [withHeaderWord('X-Service-Authentication-Id', word)]: config.authenticationId,
      [withHeaderWord('X-Service-Authentication-Key', word)]: config.masterKey,
    },
    admin: createAdminClient({
      baseUrl,
      masterKey: config.masterKey,
      authenticationId: config.authenticationId,
      headerWord: word,
    }),
    reset: () => server.projects.reset(id),
    delete: () => server.projects.delete(id),
  };
}
