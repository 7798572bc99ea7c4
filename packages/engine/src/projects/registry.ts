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
  readonly #byId = new Map<UniqueId, Map<string, HostedProject>>(UNIQUE_IDS.map((key) => [key, new Map()]));
  readonly #byMasterKey = new Map<string, HostedProject>();
  /** Each project's config as the indexes hold it, so that a change or a removal takes out what it put in. */
  readonly #indexed = new Map<HostedProject, Config>();
  /** How many projects accept each `x-<word>-` prefix, and those prefixes. */
  readonly #prefixCounts = new Map<string, number>();
  #prefixes: string[] = [];
  #serverUrl: string | undefined;
  /**
   * The projects holding each confirmation link, the last to take it in at the end: projects tell the links they take
   * in and let go (`Project.linkMade`, `linkDropped`), so the map holds exactly their links. A link held by two
   * projects (one export imported into both) leads to the last to take it in while it holds it, then to the other.
   */
  #links = new SecretMap<HostedProject[]>();

  constructor(readonly defaultProject: HostedProject) {
    this.#hosted = [defaultProject];
    this.#register(defaultProject, true);
    this.#index(defaultProject);
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

  /** How many confirmation links the projects hold (each counted once, however many projects hold it). */
  get links(): number {
    return this.#links.size;
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
    this.#index(hosted);
  }

  /** Takes a project out: its ids are free again and no request reaches it. */
  remove(hosted: HostedProject): void {
    const index = this.#hosted.indexOf(hosted);
    if (index <= 0) return;
    this.#hosted.splice(index, 1);
    hosted.project.registration = undefined;
    for (const token of hosted.project.links()) this.#link(token, hosted, false);
    hosted.project.linkMade = hosted.project.linkDropped = () => {};
    this.#unindex(hosted);
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

  /** The project holding a confirmation link (one lookup), or of the bucket a download path starts with. */
  #byPath(path: string): HostedProject | undefined {
    const token = confirmationToken(path);
    const holder = token === undefined ? undefined : this.#links.get(token)?.at(-1);
    if (holder) return holder;
    const end = path.indexOf('/', 1);
    return this.#byId.get('bucket')!.get(path.slice(1, end === -1 ? undefined : end));
  }

  /** Takes `hosted` out of the link's holders, then puts it back last if it `holds` the link (it just took it in). */
  #link(token: string, hosted: HostedProject, holds: boolean): void {
    const holders = (this.#links.get(token) ?? []).filter((each) => each !== hosted);
    if (holds) holders.push(hosted);
    if (holders.length > 0) this.#links.set(token, holders);
    else this.#links.delete(token);
  }

  /**
   * Makes the project's config changes (`PATCH /__admin/config`, reset) keep its ids unique and indexed, and its
   * confirmation links (those it holds now, then each it takes in or lets go) kept in `#links`.
   */
  #register(hosted: HostedProject, isDefault: boolean): void {
    for (const token of hosted.project.links()) this.#link(token, hosted, true);
    hosted.project.linkMade = (token) => this.#link(token, hosted, true);
    hosted.project.linkDropped = (token) => this.#link(token, hosted, false);
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
      changed: () => {
        this.#unindex(hosted);
        this.#index(hosted);
      },
    };
  }

  /** Puts the project's ids, master key and header words in the indexes (its ids are free: `checkIds`). */
  #index(hosted: HostedProject): void {
    const { config } = hosted.project;
    this.#indexed.set(hosted, config);
    for (const key of UNIQUE_IDS) this.#byId.get(key)!.set(config[key], hosted);
    this.#byMasterKey.set(config.masterKey, hosted);
    this.#countPrefixes(config, 1);
  }

  /** Takes out what `#index` put in for the project, as its config was then. */
  #unindex(hosted: HostedProject): void {
    const config = this.#indexed.get(hosted);
    if (!config) return;
    this.#indexed.delete(hosted);
    for (const key of UNIQUE_IDS) {
      const ids = this.#byId.get(key)!;
      if (ids.get(config[key]) === hosted) ids.delete(config[key]);
    }
    if (this.#byMasterKey.get(config.masterKey) === hosted) this.#byMasterKey.delete(config.masterKey);
    this.#countPrefixes(config, -1);
  }

  #countPrefixes(config: Config, by: 1 | -1): void {
    for (const prefix of new Set(config.headerWord.map((word) => `x-${word.toLowerCase()}-`))) {
      const count = (this.#prefixCounts.get(prefix) ?? 0) + by;
      if (count > 0) this.#prefixCounts.set(prefix, count);
      else this.#prefixCounts.delete(prefix);
    }
    this.#prefixes = [...this.#prefixCounts.keys()];
  }
}
