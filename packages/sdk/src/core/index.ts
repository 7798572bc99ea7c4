/**
 * `@basekit/sdk/core`: what every area is built on. Import it with one area to keep a bundle small:
 *
 * @example
 * import { createCore } from '@basekit/sdk/core';
 * import { createLeaderboards } from '@basekit/sdk/leaderboards';
 * const boards = createLeaderboards(createCore({ baseUrl, authenticationId, clientKey, gameId }));
 *
 * @module @basekit/sdk/core
 */
export type { AreaId, AreaOf, FilesOf, MissingOption } from './area-ids.js';
export { createCore, createHttpClient, dataOf, type Core, type HttpClient, type TransportOptions } from './core.js';
export * from './errors.js';
export { withHeaderWord } from './header-word.js';
export type { NetworkFailureReason } from './network-failure.browser.js';
export type { CallOptions, ClientOptions, KnownOptions } from './options.js';
export { SessionManager, type SessionChange, type SessionListener, type TokenResponse } from './session.js';
export {
  localStorageTokenStore,
  memoryTokenStore,
  type KeyValueStorage,
  type Session,
  type TokenStore,
} from './token-store.js';
