import type { Config } from '../config.js';
import type { Capabilities } from './capabilities.js';
import { Clock } from './clock.js';
import { TokenIssuer } from './tokens.js';
import type { UserDirectory } from './directory.js';

/** One area's slice of a project's state, with how it is created and (de)serialised for the admin API. */
export interface StateSlice<S> {
  key: string;
  init(project: Project): S;
  /** Plain JSON for `GET /__admin/state`; defaults to the state itself. */
  toJSON?(state: S, project: Project): unknown;
  /** Inverse of `toJSON`; defaults to the JSON itself. */
  fromJSON?(json: unknown, project: Project): S;
}

/** An e-mail the service would have sent; collected for `GET /__admin/outbox`. */
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
  /** The address the server listens on (`http://host:port`), set by the Node server once listening. */
  serverUrl: string | undefined;
  readonly #state = new Map<string, unknown>();
  readonly #userDeletedListeners: ((userId: string) => void)[] = [];

  constructor(
    public config: Config,
    readonly capabilities: Capabilities,
    readonly slices: readonly StateSlice<unknown>[],
  ) {
    this.tokens = this.#newIssuer();
  }

  /** The state of one area, created on first use. */
  state<S>(slice: StateSlice<S>): S {
    if (!this.#state.has(slice.key)) this.#state.set(slice.key, slice.init(this));
    return this.#state.get(slice.key) as S;
  }

  /** Lets an area let go of what was a user's when the users area deletes the user (the leaderboards drop their scores). */
  onUserDeleted(listener: (userId: string) => void): void {
    this.#userDeletedListeners.push(listener);
  }

  /** Tells every listening area that a user was deleted. */
  userDeleted(userId: string): void {
    for (const listener of this.#userDeletedListeners) listener(userId);
  }

  /** Back to the state right after start-up. */
  reset(): void {
    this.#state.clear();
    this.outbox.length = 0;
    this.clock.reset();
    // Created now rather than on first use, so a durable slice records its empty state before a restart.
    for (const slice of this.slices) this.state(slice);
  }

  reconfigure(config: Config): void {
    this.config = config;
    this.tokens = this.#newIssuer();
  }

  exportState(): Record<string, unknown> {
    const areas: Record<string, unknown> = {};
    for (const slice of this.slices) {
      const state = this.state(slice);
      areas[slice.key] = slice.toJSON ? slice.toJSON(state, this) : state;
    }
    return { clockOffsetMs: this.clock.now() - Date.now(), outbox: this.outbox, areas };
  }

  importState(json: { clockOffsetMs?: number; outbox?: Mail[]; areas?: Record<string, unknown> }): void {
    this.reset();
    this.clock.advance((json.clockOffsetMs ?? 0) / 1000);
    this.outbox.push(...(json.outbox ?? []));
    for (const slice of this.slices) {
      const data = json.areas?.[slice.key];
      if (data !== undefined) this.#state.set(slice.key, slice.fromJSON ? slice.fromJSON(data, this) : data);
    }
  }

  #newIssuer(): TokenIssuer {
    const { authenticationId, masterKey } = this.config;
    return new TokenIssuer(`basekit-access:${authenticationId}:${masterKey}`, authenticationId, this.clock);
  }
}
