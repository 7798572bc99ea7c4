import { projectSettings, resolveConfig, type Config } from '../config.js';
import type { Capabilities } from './capabilities.js';
import { Clock, MAX_CLOCK_OFFSET_SECONDS, isClockOffset } from './clock.js';
import { TokenIssuer } from './auth/tokens.js';
import type { UserDirectory } from './directory.js';

/** One area's slice of a project's state, with how it is created and (de)serialised for the admin API. */
export interface StateSlice<S> {
  key: string;
  init(project: Project): S;
  /** Plain JSON for `GET /__admin/state`; defaults to the state itself. */
  toJSON?(state: S, project: Project): unknown;
  /** Inverse of `toJSON`; defaults to the JSON itself. */
  fromJSON?(json: unknown, project: Project): S;
  /**
   * The slice saves itself through `capabilities.persistence` before each change is answered (the files tree): when
   * that capability is present, the journal neither keeps nor rebuilds it.
   */
  persistsItself?: boolean;
  /** What the slice holds, counted by kind (`{ users: 3, sessions: 2 }`): what an import says it restored. */
  count?(state: S): Record<string, number>;
  /** Called once after the state was restored from a previous run, to settle what was under way when it stopped. */
  restarted?(state: S, project: Project): void;
  /**
   * An independent copy of the state: no later change of either shows in the other (named snapshots). A copy may share
   * what is never changed in place (rows, file bytes). Absent: a copy through the JSON form (`toJSON`, a structured
   * clone, `fromJSON`), fine for small slices.
   */
  copy?(state: S, project: Project): S;
  /**
   * Called after the state was replaced whole by a named snapshot's: a slice that keeps itself (`persistsItself`)
   * saves the new state before the restore is answered.
   */
  replaced?(state: S, project: Project): Promise<void>;
  /**
   * The tokens of the confirmation links the state holds (the users area's): a state put in or taken out of the
   * project tells the server's registry of them (`Project.linkMade`, `linkDropped`).
   */
  links?(state: S): Iterable<string>;
}

/** A whole project at one moment, for named snapshots: each slice an independent copy, with the clock, outbox and config. */
export interface ProjectImage {
  config: Config;
  clockOffsetMs: number;
  outbox: readonly Mail[];
  slices: ReadonlyMap<string, unknown>;
}

/**
 * The form of `GET /__admin/state`: the whole project but its identity (ids and keys).
 *
 * @example
 * const state: StateJson = await (await engine.fetch(new Request('http://local/__admin/state', { headers: masterKeyHeaders }))).json();
 * const copy = createEngine({ initialState: state });
 */
export interface StateJson {
  /** The project's settings (`projectSettings`): events, leaderboards, every key changed at run time. */
  config?: Partial<Config>;
  clockOffsetMs?: number;
  outbox?: Mail[];
  /** Each area's state by its slice's key. */
  areas?: Record<string, unknown>;
}

/**
 * What a project holds, counted: the answer of an import (`PUT /__admin/state`), which the panel shows.
 *
 * @example
 * const summary: StateSummary = project.summary(); // { settings: 31, clockOffsetSeconds: 0, outbox: 0, areas: { users: { users: 2, … }, … } }
 */
export interface StateSummary {
  /** How many settings the project has (`projectSettings`), changed or not. */
  settings: number;
  clockOffsetSeconds: number;
  outbox: number;
  /** Each area's counts (`StateSlice.count`), by its slice's key; `{}` for an area that counts nothing. */
  areas: Record<string, Record<string, number>>;
}

/**
 * An e-mail the service would have sent; collected for `GET /__admin/outbox`.
 *
 * @example
 * const [mail]: Mail[] = await backend.outbox();
 * const confirm = new URL(mail!.link!);
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  link?: string;
}

/** Everything one project owns: its config, clock, tokens and the state of each area. */
export class Project {
  readonly clock = new Clock();
  readonly outbox: Mail[] = [];
  tokens: TokenIssuer;
  directory: UserDirectory = { profile: () => undefined, has: () => false };
  /**
   * Tell the server's registry of a confirmation link this project now holds (made, imported, restored) and of one it
   * let go (its user deleted, its state replaced), so that the registry holds exactly the links of its projects and
   * finds a link's project in one lookup. Set by the registry.
   */
  linkMade: (token: string) => void = () => {};
  linkDropped: (token: string) => void = () => {};
  /** The address the server listens on (`http://host:port`), set by the Node server once listening. */
  serverUrl: string | undefined;
  readonly #state = new Map<string, unknown>();
  readonly #userDeletedListeners: ((userId: string) => void)[] = [];
  readonly #backgroundListeners: ((slice: StateSlice<unknown>) => void)[] = [];
  readonly #resetListeners: (() => void)[] = [];
  /** The config the project started with, which a reset returns to. */
  readonly startConfig: Config;
  /** A state loaded at start-up (`--import`), which a reset returns to; none: a reset empties the state. */
  initialState: StateJson | undefined;
  /**
   * True while the state is rebuilt from the journal at start-up: background work is not started again, and slices
   * that keep themselves (`persistsItself`) are left as their own save restored them.
   */
  restoring = false;
  /**
   * Set by the registry of the server's projects: `check` refuses a config whose ids another project holds (or that
   * carries keys of the whole server) before it is taken, `changed` follows the ids once it is.
   */
  registration: { check(config: Config): void; changed(): void } | undefined;
  /**
   * Serves a request to this project as one from outside is served, its journal included (the request inspector's
   * replay). Set by `hostProject`.
   */
  dispatch: ((request: Request) => Promise<Response>) | undefined;

  constructor(
    public config: Config,
    readonly capabilities: Capabilities,
    readonly slices: readonly StateSlice<unknown>[],
  ) {
    this.startConfig = config;
    this.tokens = this.#newIssuer();
  }

  /** The state of one area, created on first use. */
  state<S>(slice: StateSlice<S>): S {
    if (!this.#state.has(slice.key)) this.#state.set(slice.key, slice.init(this));
    return this.#state.get(slice.key) as S;
  }

  /** The tokens of the confirmation links this project holds. */
  *links(): Iterable<string> {
    for (const slice of this.slices) if (slice.links) yield* slice.links(this.state(slice));
  }

  /** Lets an area let go of what was a user's when the users area deletes the user (the leaderboards drop their scores). */
  onUserDeleted(listener: (userId: string) => void): void {
    this.#userDeletedListeners.push(listener);
  }

  /** Tells every listening area that a user was deleted. */
  userDeleted(userId: string): void {
    for (const listener of this.#userDeletedListeners) listener(userId);
  }

  /** Lets the journal keep what background work (a transcoder job) changes after its request was answered. */
  onBackgroundChange(listener: (slice: StateSlice<unknown>) => void): void {
    this.#backgroundListeners.push(listener);
  }

  /** Tells the journal that background work changed `slice`. */
  backgroundChange<S>(slice: StateSlice<S>): void {
    for (const listener of this.#backgroundListeners) listener(slice as StateSlice<unknown>);
  }

  /** Lets what a project holds beside its state (the faults set on it) go back to nothing on a reset. */
  onReset(listener: () => void): void {
    this.#resetListeners.push(listener);
  }

  /** Back to the state right after start-up: the start config, and the `initialState` if any, else nothing. */
  reset(): void {
    // The config first: it may be refused (its ids taken by another project meanwhile), and then nothing changes.
    this.reconfigure(this.startConfig);
    this.#clear();
    this.importInitialState();
    for (const listener of this.#resetListeners) listener();
  }

  /**
   * Imports the `initialState`, if any, as a copy: areas keep the objects they import, and a reset must find the
   * initial state as it was given, not as the project's requests left it.
   */
  importInitialState(): void {
    if (this.initialState) this.importState(structuredClone(this.initialState));
  }

  reconfigure(config: Config): void {
    this.registration?.check(config);
    this.config = config;
    this.tokens = this.#newIssuer();
    this.registration?.changed();
  }

  /** The config keys changed at run time (`PATCH /__admin/config`), with their values now. */
  configChanges(): Partial<Config> {
    const start = this.startConfig as unknown as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(this.config).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(start[key])),
    );
  }

  /** The start config with `changes` made again (a restart after `PATCH /__admin/config`). */
  applyConfigChanges(changes: Partial<Config>): void {
    this.reconfigure(resolveConfig({ ...this.startConfig, ...changes }));
  }

  /** True when `slice` keeps itself across restarts through `capabilities.persistence` rather than the journal. */
  persistsItself(slice: StateSlice<unknown>): boolean {
    return slice.persistsItself === true && this.capabilities.persistence !== undefined;
  }

  /** The state as `GET /__admin/state` shows it, with the slices `include` accepts (all by default). */
  exportState(include: (slice: StateSlice<unknown>) => boolean = () => true): Required<StateJson> {
    const areas: Record<string, unknown> = {};
    for (const slice of this.slices) {
      if (!include(slice)) continue;
      const state = this.state(slice);
      areas[slice.key] = slice.toJSON ? slice.toJSON(state, this) : state;
    }
    return { config: projectSettings(this.config), clockOffsetMs: this.clock.offsetMs, outbox: this.outbox, areas };
  }

  /** What the project holds now, counted. */
  summary(): StateSummary {
    const areas: Record<string, Record<string, number>> = {};
    for (const slice of this.slices) areas[slice.key] = slice.count?.(this.state(slice)) ?? {};
    return {
      settings: Object.keys(projectSettings(this.config)).length,
      clockOffsetSeconds: this.clock.offsetMs / 1000,
      outbox: this.outbox.length,
      areas,
    };
  }

  /**
   * Makes the state `json` (an export): its settings first (`settings: false` keeps the config as it is), since areas
   * read their state against them (the standings of a leaderboard defined at run time), then every slice.
   */
  importState(json: StateJson, { settings = true } = {}): void {
    const offsetMs = json.clockOffsetMs ?? 0;
    if (!isClockOffset(offsetMs))
      throw new Error(
        `"clockOffsetMs" must be a number of milliseconds from 0 to ${MAX_CLOCK_OFFSET_SECONDS * 1000} (the clock runs at most 100 years ahead of real time)`,
      );
    if (settings && json.config !== undefined)
      this.reconfigure(resolveConfig({ ...this.config, ...projectSettings(json.config) }));
    this.#clear();
    this.clock.advance(offsetMs / 1000);
    this.outbox.push(...(json.outbox ?? []));
    for (const slice of this.slices) {
      const data = json.areas?.[slice.key];
      if (data === undefined || this.#keepsAsItIs(slice)) continue;
      this.#put(slice, slice.fromJSON ? slice.fromJSON(data, this) : data);
    }
  }

  /** The whole project as it is now, as an image that no later change touches (see `ProjectImage`). */
  capture(): ProjectImage {
    const slices = new Map<string, unknown>();
    for (const slice of this.slices) slices.set(slice.key, copyOf(slice, this.state(slice), this));
    return { config: this.config, clockOffsetMs: this.clock.offsetMs, outbox: [...this.outbox], slices };
  }

  /**
   * Makes the project exactly what `image` holds (its config, clock offset, outbox and every state), leaving `image`
   * untouched for the next restore; slices that keep themselves have saved their new state when it settles.
   */
  async restore(image: ProjectImage): Promise<void> {
    // The config first: it may be refused (its ids taken by another project meanwhile), and then nothing changes.
    if (image.config !== this.config) this.reconfigure(image.config);
    this.clock.reset();
    this.clock.advance(image.clockOffsetMs / 1000);
    this.outbox.length = 0;
    this.outbox.push(...image.outbox);
    for (const slice of this.slices) this.#put(slice, copyOf(slice, image.slices.get(slice.key), this));
    await Promise.all(
      this.slices.map((slice) => (this.persistsItself(slice) ? slice.replaced?.(this.state(slice), this) : undefined)),
    );
  }

  /** Replaces one slice with its JSON form (a background change the journal kept). */
  importSlice(key: string, json: unknown): void {
    const slice = this.slices.find((s) => s.key === key);
    if (!slice) throw new Error(`there is no state slice "${key}"`);
    this.#put(slice, slice.fromJSON ? slice.fromJSON(json, this) : json);
  }

  /**
   * Puts `state` in place of the slice's (none: takes it out), telling the registry the links that left with the old
   * state and came with the new: O(the slice's links), and only once the new state is whole (an import that fails
   * midway tells nothing of what it built).
   */
  #put(slice: StateSlice<unknown>, state: unknown): void {
    const old = this.#state.get(slice.key);
    if (slice.links && old !== undefined) for (const token of slice.links(old)) this.linkDropped(token);
    if (state === undefined) this.#state.delete(slice.key);
    else this.#state.set(slice.key, state);
    if (slice.links && state !== undefined) for (const token of slice.links(state)) this.linkMade(token);
  }

  #keepsAsItIs(slice: StateSlice<unknown>): boolean {
    return this.restoring && this.persistsItself(slice);
  }

  #clear(): void {
    for (const slice of this.slices) if (!this.#keepsAsItIs(slice)) this.#put(slice, undefined);
    this.outbox.length = 0;
    this.clock.reset();
    // Created now rather than on first use, so a durable slice records its empty state before a restart.
    for (const slice of this.slices) this.state(slice);
  }

  #newIssuer(): TokenIssuer {
    const { authenticationId, masterKey } = this.config;
    const { tokenSecret, hmacSha256 } = this.capabilities;
    const secret = `basekit-access:${authenticationId}:${masterKey}${tokenSecret ? `:${tokenSecret}` : ''}`;
    return new TokenIssuer(secret, authenticationId, hmacSha256);
  }
}

/** An independent copy of one slice's state (see `StateSlice.copy`). */
function copyOf<S>(slice: StateSlice<S>, state: S, project: Project): S {
  if (slice.copy) return slice.copy(state, project);
  const json = structuredClone(slice.toJSON ? slice.toJSON(state, project) : state);
  return slice.fromJSON ? slice.fromJSON(json, project) : (json as S);
}
