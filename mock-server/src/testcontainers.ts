// `@basekit/mock-server/testcontainers`: the reference server's container image (the repository's Dockerfile) as a
// Testcontainers module, shaped as the `@testcontainers/*` modules are: a container class to configure and start, and
// a started container that hands back the URL, the keys and a project per test. `testcontainers` is the app's own
// (an optional peer dependency), so nothing else of the server package needs it.
import { randomUUID } from 'node:crypto';
import { type Config, type ConfigInput, developmentConfig, resolveConfig } from '@basekit/engine';
import { AbstractStartedContainer, GenericContainer, type StartedTestContainer, Wait } from 'testcontainers';
import { createTestProject, type TestClientOptions, type TestProject, type TestProjectOptions } from './testing.js';

/** The port the image's server listens on inside the container (its `PORT`). */
const BASEKIT_PORT = 3000;
const CONFIG_FILE = '/config.json';

/**
 * The reference server in a container of the given image (built from basekit's Dockerfile: `docker build -t
 * basekit-server .`). It runs the development project under a master key of its own (random unless `withConfig`
 * gives one: the container's port is reachable from other machines), and is ready once `GET /__health` answers.
 *
 * @example
 * import { BasekitContainer } from '@basekit/mock-server/testcontainers';
 * import { createClient } from '@basekit/sdk';
 *
 * const basekit = await new BasekitContainer('basekit-server:0.1.0').start();
 * const project = await basekit.createTestProject({ config: { emailConfirmation: true } });
 * const client = createClient(project.clientOptions);
 * await client.auth.register({ username: 'ann', password: 'pw-ann' });
 * await basekit.stop();
 */
export class BasekitContainer extends GenericContainer {
  #config: Partial<ConfigInput> = {};

  constructor(image: string) {
    super(image);
    this.withExposedPorts(BASEKIT_PORT)
      .withWaitStrategy(Wait.forHttp('/__health', BASEKIT_PORT))
      .withStartupTimeout(60_000);
  }

  /**
   * Config keys of the server's default project (`config.schema.json`), over the development project's: its ids and
   * keys, limits, events and leaderboards, and the server's own keys (`projects`, `maxProjects`). Checked when the
   * container starts, before it is created.
   *
   * @example
   * const basekit = await new BasekitContainer('basekit-server:0.1.0')
   *   .withConfig({ masterKey: 'ci-master-key', maxUploadBytes: 1024 * 1024 })
   *   .start();
   */
  withConfig(config: Partial<ConfigInput>): this {
    this.#config = config;
    return this;
  }

  override async start(): Promise<StartedBasekitContainer> {
    const input = developmentConfig({ masterKey: `master-${randomUUID()}`, ...this.#config });
    const config = resolveConfig(input);
    this.withCopyContentToContainer([{ content: JSON.stringify(input), target: CONFIG_FILE, mode: 0o644 }]);
    this.withCommand(['--config', CONFIG_FILE, '--data-dir', '/data']);
    return new StartedBasekitContainer(await super.start(), config);
  }
}

/** A running {@link BasekitContainer}: where it is, its default project's keys, and projects of their own. */
export class StartedBasekitContainer extends AbstractStartedContainer {
  readonly #config: Config;

  constructor(started: StartedTestContainer, config: Config) {
    super(started);
    this.#config = config;
  }

  /**
   * The server's address from this machine, `http://HOST:PORT`.
   *
   * @example
   * const health = await fetch(`${basekit.getUrl()}/__health`);
   */
  getUrl(): string {
    return `http://${this.getHost()}:${this.getMappedPort(BASEKIT_PORT)}`;
  }

  /**
   * The server's admin key: the default project's master key, which creates and deletes projects.
   *
   * @example
   * await fetch(`${basekit.getUrl()}/__admin/projects`, { headers: { 'X-Service-Authentication-Key': basekit.getAdminKey() } });
   */
  getAdminKey(): string {
    return this.#config.masterKey;
  }

  /**
   * The default project's whole config as the server runs it: ids, keys and every default.
   *
   * @example
   * const { authenticationId, clientKey } = basekit.getConfig();
   */
  getConfig(): Config {
    return this.#config;
  }

  /**
   * Options for the SDK's `createClient` on the default project (its client key, never the master key).
   *
   * @example
   * const client = createClient(basekit.getClientOptions());
   */
  getClientOptions(): TestClientOptions {
    const { authenticationId, clientKey, objectStorageId, storageId, gameId, bucket, headerWord } = this.#config;
    return {
      baseUrl: this.getUrl(),
      authenticationId,
      clientKey,
      objectStorageId,
      storageId,
      gameId,
      bucket,
      headerWord: headerWord[0] ?? 'Service',
    };
  }

  /**
   * A project of its own on this server, for one test file, worker or test (`createTestProject` of
   * `@basekit/mock-server/testing`, with this server's address, admin key and header word).
   *
   * @example
   * const project = await basekit.createTestProject({ config: { events: [{ name: 'win', fields: ['score'] }] } });
   * const client = createClient(project.clientOptions);
   * await project.delete();
   */
  createTestProject(options: Pick<TestProjectOptions, 'config'> = {}): Promise<TestProject> {
    return createTestProject({
      ...options,
      url: this.getUrl(),
      adminKey: this.getAdminKey(),
      headerWord: this.#config.headerWord[0],
    });
  }
}
