import { ConfigError, resolveConfig, type Config, type ConfigInput } from '../config.js';
import type { Capabilities, ProjectStore } from '../shared/capabilities.js';
import { ApiError, ErrorCode } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { StateRestoreError } from '../shared/restore.js';
import type { HostedProject } from './hosted.js';
import { ProjectRegistry } from './registry.js';

/** How the store keeps each project beyond the default one: where its state is, and the config it started with. */
interface StoredProject {
  key: string;
  config: Config;
  /** Declared in the server's config (`projects`), which then gives its config; otherwise created at run time. */
  declared?: true;
}

interface StoredList {
  basekitProjects: 1;
  projects: StoredProject[];
}

/** Creates a project (its state kept by `capabilities`, when they keep any) and serves it. */
export type ProjectHosting = (config: Config, capabilities: Capabilities) => HostedProject;

/**
 * The server's projects over time: those of the config at start-up, those a data folder kept from earlier runs,
 * and those created and deleted at run time, each with its state in a place of its own (`ProjectStore`).
 */
export class ServerProjects {
  readonly registry: ProjectRegistry;
  /** Where each project's state is kept in the store (absent for the default project and without a store). */
  readonly #keys = new Map<HostedProject, StoredProject>();
  /** Creations and deletions, one at a time: each checks the ids before it waits for the store. */
  #turn: Promise<unknown> = Promise.resolve();

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
   * state from the last run that declared it. Rejects with a `ConfigError` when two projects share an id.
   */
  async start(declared: readonly ConfigInput[]): Promise<void> {
    const stored = await this.#load();
    const started: StoredProject[] = [];
    for (const input of declared) {
      const config = resolveConfig(input);
      const kept = stored.find((s) => s.declared && s.config.authenticationId === config.authenticationId);
      started.push({ key: kept?.key ?? newId(16), config, declared: true });
    }
    // A run-time project's config was checked when it was created; checked again, should the file have been edited.
    for (const kept of stored) if (!kept.declared) started.push({ key: kept.key, config: resolveConfig(kept.config) });
    for (const entry of started) {
      const hosted = this.host(entry.config, await this.#capabilitiesOf(entry.key));
      this.#keys.set(hosted, entry);
      try {
        this.registry.add(hosted);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const where = entry.declared ? 'the config' : 'a project kept in the data folder';
        throw new ConfigError(`invalid config: project "${entry.config.authenticationId}" of ${where}: ${error.message}`);
      }
      await hosted.ready;
    }
    if (this.store) await this.#save();
  }

  /** Creates a project with `config` (its ids must be free: 409) and serves it; at most `maxProjects` (400). */
  create(config: Config): Promise<HostedProject> {
    return this.#alone(async () => {
      const { maxProjects } = this.registry.defaultProject.project.config;
      if (this.registry.size >= maxProjects) throw new ApiError(400, ErrorCode.TOO_MANY_PROJECTS, `this server holds ${maxProjects} projects already (maxProjects)`);
      this.registry.checkIds(config);
      const entry: StoredProject = { key: newId(16), config };
      const hosted = this.host(config, await this.#capabilitiesOf(entry.key));
      await hosted.ready;
      this.registry.add(hosted);
      this.#keys.set(hosted, entry);
      if (this.store) await this.#save();
      return hosted;
    });
  }

  /** Deletes a project with all it holds; the default project cannot be deleted (409). */
  remove(hosted: HostedProject): Promise<void> {
    return this.#alone(async () => {
      if (hosted === this.registry.defaultProject) throw new ApiError(409, ErrorCode.DEFAULT_PROJECT, 'the default project (the server\'s own config) cannot be deleted');
      this.registry.remove(hosted);
      const entry = this.#keys.get(hosted);
      this.#keys.delete(hosted);
      await hosted.close();
      if (this.store && entry) {
        await this.#save();
        await this.store.remove(entry.key);
      }
    });
  }

  /** Waits for every project's changes under way and writes their snapshots (a clean shutdown). */
  async close(): Promise<void> {
    await this.#turn;
    await Promise.all(this.registry.list().map((hosted) => hosted.close()));
  }

  #alone<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(work);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #capabilitiesOf(key: string): Promise<Capabilities> {
    return { ...this.sharedCapabilities, ...(this.store && (await this.store.open(key))) };
  }

  async #load(): Promise<StoredProject[]> {
    const json = await this.store?.load();
    if (json === undefined) return [];
    const list = json as Partial<StoredList> | null;
    if (typeof list !== 'object' || list === null || list.basekitProjects !== 1 || !Array.isArray(list.projects)) {
      throw new StateRestoreError('the list of projects of the data folder', 'it is not a basekit list of projects');
    }
    return list.projects;
  }

  #save(): Promise<void> {
    const projects = this.registry.list().flatMap((hosted) => this.#keys.get(hosted) ?? []);
    return this.store!.save({ basekitProjects: 1, projects } satisfies StoredList);
  }
}
