import { ConfigError, resolveConfig, type Config, type ConfigInput } from '../config.js';
import type { Capabilities, ProjectStore } from '../shared/capabilities.js';
import { ApiError, ErrorCode } from '../shared/errors.js';
import { newId, unrecorded } from '../shared/ids.js';
import { StateRestoreError } from '../shared/durability/restore.js';
import type { HostedProject } from './hosted.js';
import { ProjectRegistry } from './registry.js';
import { OneAtATime } from '../shared/util/one-at-a-time.js';

/** How the store keeps each project beyond the default one: the config it started with, and its place in the list. */
interface ProjectRecord {
  basekitProject: 1;
  /** Projects are listed in this order (the order they were first started). */
  position: number;
  config: Config;
  /** Declared in the server's config (`projects`), which then gives its config; otherwise created at run time. */
  declared?: true;
}

/** A project to start or started, and where the store keeps it. */
interface Entry {
  key: string;
  record: ProjectRecord;
}

/** Creates a project (its state kept by `capabilities`, when they keep any) and serves it. */
type ProjectHosting = (config: Config, capabilities: Capabilities) => HostedProject;

/**
 * The server's projects over time: those of the config at start-up, those a data folder kept from earlier runs,
 * and those created and deleted at run time, each with its state in a place of its own (`ProjectStore`).
 *
 * @example
 * const hosted = await engine.projects.create(resolveConfig(developmentConfig({ authenticationId: 'p2', objectStorageId: 'p2-db', storageId: 'p2-storage', gameId: 'p2-game' })));
 * console.log(engine.projects.registry.size); // 2
 */
export class ServerProjects {
  readonly registry: ProjectRegistry;
  /** Where the store keeps each project (the default project keeps its state apart, with the server's capabilities). */
  readonly #entries = new Map<HostedProject, Entry>();
  #nextPosition = 0;
  /** Creations and deletions, one at a time: each checks the ids before it waits for the store. */
  readonly #turns = new OneAtATime();

  constructor(
    defaultProject: HostedProject,
    private readonly sharedCapabilities: Capabilities,
    private readonly host: ProjectHosting,
    private readonly store: ProjectStore | undefined,
  ) {
    this.registry = new ProjectRegistry(defaultProject);
  }

  /**
   * Starts the projects the config declares (`declared`) and those the store kept; a declared project keeps its
   * state from the last run that declared it (one no longer declared is left in the store, unserved). Rejects with a
   * `ConfigError` when two projects share an id.
   */
  async start(declared: readonly ConfigInput[]): Promise<void> {
    const kept = await this.#load();
    this.#nextPosition = Math.max(0, ...kept.map((e) => e.record.position + 1));
    const started: Entry[] = [];
    for (const input of declared) {
      const config = resolveConfig(input);
      const same = kept.find((e) => e.record.declared && e.record.config.authenticationId === config.authenticationId);
      started.push({
        key: same?.key ?? newId(unrecorded, 16),
        record: { basekitProject: 1, position: same?.record.position ?? this.#nextPosition++, config, declared: true },
      });
    }
    // A run-time project's config was checked when it was created; checked again, should the file have been edited.
    for (const { key, record } of kept)
      if (!record.declared) started.push({ key, record: { ...record, config: resolveConfig(record.config) } });
    const opened: HostedProject[] = [];
    try {
      for (const entry of started) {
        const hosted = this.host(entry.record.config, await this.#capabilitiesOf(entry.key));
        opened.push(hosted);
        // Restored first, so its ids are checked as its kept config changes left them.
        await hosted.ready;
        this.#add(hosted, entry);
        this.#entries.set(hosted, entry);
        if (entry.record.declared) await this.store?.save(entry.key, entry.record);
      }
    } catch (error) {
      // A start that failed writes nothing after it: the projects it opened finish their writes and close first.
      await Promise.allSettled(opened.map((hosted) => hosted.close()));
      throw error;
    }
  }

  #add(hosted: HostedProject, { record }: Entry): void {
    try {
      this.registry.add(hosted);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const where = record.declared ? 'the config' : 'a project kept in the data folder';
      throw new ConfigError(
        `invalid config: project "${record.config.authenticationId}" of ${where}: ${error.message}`,
      );
    }
  }

  /** Creates a project with `config` (its ids must be free: 409) and serves it; at most `maxProjects` (400). */
  create(config: Config): Promise<HostedProject> {
    return this.#alone(async () => {
      const { maxProjects } = this.registry.defaultProject.project.config;
      if (this.registry.size >= maxProjects)
        throw new ApiError(
          400,
          ErrorCode.TOO_MANY_PROJECTS,
          `this server holds ${maxProjects} projects already (maxProjects)`,
        );
      this.registry.checkIds(config);
      const entry: Entry = {
        key: newId(unrecorded, 16),
        record: { basekitProject: 1, position: this.#nextPosition++, config },
      };
      const hosted = this.host(config, await this.#capabilitiesOf(entry.key));
      await hosted.ready;
      await this.store?.save(entry.key, entry.record);
      this.registry.add(hosted);
      this.#entries.set(hosted, entry);
      return hosted;
    });
  }

  /** Deletes a project with all it holds; the default project cannot be deleted (409). */
  remove(hosted: HostedProject): Promise<void> {
    return this.#alone(async () => {
      if (hosted === this.registry.defaultProject)
        throw new ApiError(
          409,
          ErrorCode.DEFAULT_PROJECT,
          "the default project (the server's own config) cannot be deleted",
        );
      this.registry.remove(hosted);
      const entry = this.#entries.get(hosted);
      this.#entries.delete(hosted);
      await hosted.close();
      if (entry) await this.store?.remove(entry.key);
    });
  }

  /**
   * Waits for every project's changes under way and writes their snapshots (a clean shutdown). One project that
   * fails to close does not end the wait for the others: the caller may remove the data folder as soon as this
   * settles. Rejects with the first failure.
   */
  async close(): Promise<void> {
    await this.#turns.idle();
    const closed = await Promise.allSettled(this.registry.list().map((hosted) => hosted.close()));
    const failed = closed.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  }

  #alone<T>(work: () => Promise<T>): Promise<T> {
    return this.#turns.run(work);
  }

  async #capabilitiesOf(key: string): Promise<Capabilities> {
    return { ...this.sharedCapabilities, ...(this.store && (await this.store.open(key))) };
  }

  /** The projects the store keeps, in their order. */
  async #load(): Promise<Entry[]> {
    const kept = (await this.store?.load()) ?? [];
    const entries = kept.map(({ key, record }) => {
      const r = record as Partial<ProjectRecord> | null;
      if (
        typeof r !== 'object' ||
        r === null ||
        r.basekitProject !== 1 ||
        typeof r.position !== 'number' ||
        typeof r.config !== 'object'
      ) {
        throw new StateRestoreError(`project ${key} of the data folder`, 'its record is not a basekit project record');
      }
      return { key, record: r as ProjectRecord };
    });
    return entries.sort((a, b) => a.record.position - b.record.position);
  }
}
