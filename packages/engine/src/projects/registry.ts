import { getPath } from 'hono/utils/url';
import { SERVER_KEYS, type Config } from '../config.js';
import { SecretMap } from '../shared/auth/secrets.js';
import { confirmationToken } from '../shared/confirmation-link.js';
import { ApiError, ErrorCode, badRequest } from '../shared/errors.js';
import { servicePath } from '../shared/http/path.js';
import type { HostedProject } from './hosted.js';
import { tokenProjectId } from './token-project.js';

/** The ids no two projects may share: each leads requests to one project. */
const UNIQUE_IDS = ['authenticationId', 'objectStorageId', 'storageId', 'gameId', 'bucket'] as const;
type UniqueId = (typeof UNIQUE_IDS)[number];

/** The headers (after `x-<word>-`) that carry a project's id, in the order they are read. */
const ID_HEADERS: readonly (readonly [string, UniqueId])[] = [
  ['authentication-id', 'authenticationId'],
  ['object-storage-id', 'objectStorageId'],
  ['storage-id', 'storageId'],
  ['game-id', 'gameId'],
];

/**
 * The projects of one server, indexed by every id a request may carry, so that finding a request's project costs a
 * few map reads. The default project (the server's own config) is first and never leaves.
 *
 * @example
 * const registry: ProjectRegistry = engine.projects.registry;
 * const project = registry.get('dev-auth-id')?.project;
 */
export class ProjectRegistry {
  readonly #hosted: HostedProject[];
  #byId = new Map<UniqueId, Map<string, HostedProject>>();
  #byMasterKey = new Map<string, HostedProject>();
  /** `x-<word>-` of every header word any project accepts. */
  #prefixes: string[] = [];
  #serverUrl: string | undefined;
  /**
   * The project of each confirmation link a project took in (`Project.linkMade`). Links that left their project
   * (their user deleted, the state replaced) stay until looked up or until the map is rebuilt; a removed project's
   * go with it.
   */
  #links = new SecretMap<HostedProject>();
  /** How many links the map held when last rebuilt: it is rebuilt from the projects' links at twice as many (+1,024). */
  #linksKept = 0;
  #rebuildingLinks = false;

  constructor(readonly defaultProject: HostedProject) {
    this.#hosted = [defaultProject];
    this.#register(defaultProject, true);
    this.#reindex();
  }

  /** How many projects the server holds, the default one included. */
  get size(): number {
    return this.#hosted.length;
  }

  /** Every project, the default one first, then in the order they were added. */
  list(): readonly HostedProject[] {
    return this.#hosted;
  }

  /** The project whose authentication id is `id`. */
  get(id: string): HostedProject | undefined {
    return this.#byId.get('authenticationId')!.get(id);
  }

  /** The address the server listens on, for every project's links (and every project added later). */
  set serverUrl(url: string | undefined) {
    this.#serverUrl = url;
    for (const { project } of this.#hosted) project.serverUrl = url;
  }

  /** The address the server listens on, once known. */
  get serverUrl(): string | undefined {
    return this.#serverUrl;
  }

  /** Adds a project; its ids must be free (`checkIds`). */
  add(hosted: HostedProject): void {
    this.checkIds(hosted.project.config);
    this.#hosted.push(hosted);
    hosted.project.serverUrl = this.#serverUrl;
    this.#register(hosted, false);
    this.#reindex();
  }

  /** Takes a project out: its ids are free again and no request reaches it. */
  remove(hosted: HostedProject): void {
    const index = this.#hosted.indexOf(hosted);
    if (index <= 0) return;
    this.#hosted.splice(index, 1);
    hosted.project.registration = undefined;
    hosted.project.linkMade = () => {};
    for (const token of hosted.project.links()) if (this.#links.get(token) === hosted) this.#links.delete(token);
    this.#reindex();
  }

  /**
   * Refuses (409) a config with an id or a master key another project than `self` holds: a request that carries only
   * a master key (the admin API) must lead to one project.
   */
  checkIds(config: Config, self?: HostedProject): void {
    for (const key of UNIQUE_IDS) {
      const holder = this.#byId.get(key)?.get(config[key]);
      if (holder && holder !== self) {
        throw new ApiError(
          409,
          ErrorCode.PROJECT_ID_TAKEN,
          `${key} "${config[key]}" is taken by project "${holder.project.config.authenticationId}"`,
        );
      }
    }
    const holder = this.#byMasterKey.get(config.masterKey);
    if (holder && holder !== self) {
      throw new ApiError(
        409,
        ErrorCode.MASTER_KEY_TAKEN,
        `this masterKey is the master key of project "${holder.project.config.authenticationId}": each project needs its own`,
      );
    }
  }

  /**
   * The project a request is for, by what it carries, first found wins: an id header (authentication, database,
   * storage, game id, under any accepted header word), the project of a confirmation link or the bucket of a
   * download (public addresses: a token sent along does not choose), the project of its access token, the master
   * key; else the default project, which then answers a wrong id as it always did.
   */
  resolve(request: Request): HostedProject {
    if (this.#hosted.length === 1) return this.defaultProject;
    const { headers } = request;
    for (const prefix of this.#prefixes) {
      for (const [name, key] of ID_HEADERS) {
        const value = headers.get(prefix + name);
        const hosted = value === null ? undefined : this.#byId.get(key)!.get(value);
        if (hosted) return hosted;
      }
    }
    const byPath =
      request.method === 'GET' || request.method === 'HEAD' ? this.#byPath(servicePath(getPath(request))) : undefined;
    if (byPath) return byPath;
    const pid = tokenProjectId(headers.get('authorization'));
    const byToken = pid === undefined ? undefined : this.get(pid);
    if (byToken) return byToken;
    for (const prefix of this.#prefixes) {
      const key = headers.get(`${prefix}authentication-key`);
      const hosted = key === null ? undefined : this.#byMasterKey.get(key);
      if (hosted) return hosted;
    }
    return this.defaultProject;
  }

  /** The project that made a link (a confirmation link: `Project.madeLink`), or of the bucket a download path starts with. */
  #byPath(path: string): HostedProject | undefined {
    const token = confirmationToken(path);
    const maker = token === undefined ? undefined : this.#linkMaker(token, path);
    if (maker) return maker;
    const end = path.indexOf('/', 1);
    return this.#byId.get('bucket')!.get(path.slice(1, end === -1 ? undefined : end));
  }

  /** The project holding the confirmation link `path`: one lookup, whatever the number of projects. */
  #linkMaker(token: string, path: string): HostedProject | undefined {
    const kept = this.#links.get(token);
    if (!kept || kept.project.madeLink(path)) return kept;
    // A link its project no longer holds, or that another project took in too (one export imported into two): the
    // projects are asked, as before. Only a link once made gets here, and nobody but its recipient knows it.
    this.#links.delete(token);
    const maker = this.#hosted.find(({ project }) => project.madeLink(path));
    if (maker) this.#links.set(token, maker);
    return maker;
  }

  /**
   * Keeps the project of a link; the map is rebuilt from the projects' own links once it has doubled since it last
   * was, after the change under way (a state being replaced tells its links one by one) is whole.
   */
  #linkMade(token: string, hosted: HostedProject): void {
    this.#links.set(token, hosted);
    if (this.#rebuildingLinks || this.#links.size <= 2 * this.#linksKept + 1024) return;
    this.#rebuildingLinks = true;
    queueMicrotask(() => {
      this.#links = new SecretMap();
      for (const each of this.#hosted) for (const link of each.project.links()) this.#links.set(link, each);
      this.#linksKept = this.#links.size;
      this.#rebuildingLinks = false;
    });
  }

  /** Makes the project's config changes (`PATCH /__admin/config`, reset) keep its ids unique and indexed. */
  #register(hosted: HostedProject, isDefault: boolean): void {
    for (const token of hosted.project.links()) this.#links.set(token, hosted);
    hosted.project.linkMade = (token) => this.#linkMade(token, hosted);
    hosted.project.registration = {
      check: (config) => {
        // The default project's config is the server's: of the server's keys, only its `projects` are fixed at start.
        const current = hosted.project.config;
        const key = SERVER_KEYS.find(
          (k) => (!isDefault || k === 'projects') && JSON.stringify(config[k]) !== JSON.stringify(current[k]),
        );
        if (key)
          throw badRequest(
            ErrorCode.SERVER_KEY,
            `"${key}" is a key of the whole server: it cannot be changed for one project`,
          );
        this.checkIds(config, hosted);
      },
      changed: () => this.#reindex(),
    };
  }

  /** Rebuilds the indexes from every project's config now (a config change or a project more or less: rare). */
  #reindex(): void {
    this.#byId = new Map(UNIQUE_IDS.map((key) => [key, new Map()]));
    this.#byMasterKey = new Map();
    const prefixes = new Set<string>();
    for (const hosted of this.#hosted) {
      const { config } = hosted.project;
      for (const key of UNIQUE_IDS) this.#byId.get(key)!.set(config[key], hosted);
      if (!this.#byMasterKey.has(config.masterKey)) this.#byMasterKey.set(config.masterKey, hosted);
      for (const word of config.headerWord) prefixes.add(`x-${word.toLowerCase()}-`);
    }
    this.#prefixes = [...prefixes];
  }
}
