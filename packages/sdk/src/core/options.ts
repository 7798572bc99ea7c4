import type { TokenStore } from './token-store.js';

/**
 * What a client needs to reach one project of the service (the keys come from the management panel).
 *
 * @example
 * const options: ClientOptions = { baseUrl: 'http://localhost:3000', authenticationId: 'dev-auth-id', clientKey: 'dev-client-key', objectStorageId: 'dev-db' };
 * const client = createClient(options);
 */
export interface ClientOptions {
  /** `{base_url}`: users, database, leaderboards. */
  baseUrl: string;
  /** `{storage_url}`: file storage and downloads; defaults to `baseUrl`. */
  storageUrl?: string;
  /** `{transcoder_url}`; defaults to `baseUrl`. */
  transcoderUrl?: string;
  /** X-Service-Authentication-Id */
  authenticationId: string;
  /** The client key (never ship the master key in an app). */
  clientKey: string;
  /** X-Service-Object-Storage-Id, needed by `db`. */
  objectStorageId?: string;
  /** X-Service-Storage-Id, needed by `files`. */
  storageId?: string;
  /** X-Service-Game-Id, needed by `leaderboards`. */
  gameId?: string;
  /** The bucket's name, the first segment of download addresses (`files.downloadUrl`); defaults to `storageId`. */
  bucket?: string;
  /** Where the session is kept; in memory by default. */
  tokenStore?: TokenStore;
  /**
   * The word in the service's header names, `X-<word>-Authentication-Id` …: the spec's neutral `Service` by
   * default. A deployment that names its headers with its product's word needs that word here.
   */
  headerWord?: string;
  /** The fetch to use; `globalThis.fetch` at call time by default (so msw started later still intercepts). */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * Longest time one call may take, its answer's body included (a renewal and replay after a 401 within it); past it
   * the call rejects with `TimeoutError`. None by default. One call can have its own with `signal:
   * AbortSignal.timeout(ms)`.
   */
  timeoutMs?: number;
}

/**
 * What every call takes besides its own arguments.
 *
 * @example
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 5000);
 * await client.auth.me({ signal: controller.signal });
 */
export interface CallOptions {
  /** Aborts the call: it then rejects with `AbortError`. */
  signal?: AbortSignal;
}

/**
 * Options of `createClient` and `createCore` that are no `ClientOptions` key: each typed `never`, so a misspelt option
 * (`objectStorageID`) does not compile.
 *
 * @example
 * function create<O extends ClientOptions>(options: O & KnownOptions<O>) {}
 */
export type KnownOptions<O> = Record<Exclude<keyof O, keyof ClientOptions>, never>;
