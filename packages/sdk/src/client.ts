import { createAuth, type Auth } from './auth/index.js';
import { createCore, type Core } from './core/core.js';
import type { ClientOptions } from './core/options.js';
import { createDb, type Db } from './db/index.js';
import { createFiles, type Files } from './files/index.js';
import { createLeaderboards, type Leaderboards } from './leaderboards/index.js';
import { createTranscoder, type Transcoder } from './transcoder/index.js';

/** One client of the service with an area each; they share the session. */
export interface Client {
  /** The shared core: options, session and transport. */
  core: Core;
  auth: Auth;
  db: Db;
  files: Files;
  transcoder: Transcoder;
  leaderboards: Leaderboards;
}

/**
 * Creates a client of every area of the service. An app that uses one area can import it alone
 * (`@basekit/sdk/db` with `@basekit/sdk/core`) to keep its bundle small.
 *
 * @example
 * const client = createClient({
 *   baseUrl: 'http://localhost:3000',
 *   authenticationId: 'dev-auth-id',
 *   clientKey: 'dev-client-key',
 *   objectStorageId: 'dev-db',
 *   storageId: 'dev-storage',
 *   gameId: 'dev-game',
 *   tokenStore: localStorageTokenStore(),
 * });
 * await client.auth.login('ann', 's3cret');
 * const notes = await client.db.table('Note').query().find();
 */
export function createClient(options: ClientOptions): Client {
  const core = createCore(options);
  return {
    core,
    auth: createAuth(core),
    db: createDb(core),
    files: createFiles(core),
    transcoder: createTranscoder(core),
    leaderboards: createLeaderboards(core),
  };
}
