import { createAuth, type Auth } from './auth/index.js';
import type { AreaOf, FilesOf } from './core/area-ids.js';
import { createCore, type Core } from './core/core.js';
import type { ClientOptions, KnownOptions } from './core/options.js';
import { createDb, type Db } from './db/index.js';
import { createFiles, type Files } from './files/index.js';
import { createLeaderboards, type Leaderboards } from './leaderboards/index.js';
import { createTranscoder, type Transcoder } from './transcoder/index.js';

/**
 * One client of the service with an area each; they share the session.
 *
 * @example
 * let client: Client = createClient({ baseUrl, authenticationId, clientKey, objectStorageId, storageId, gameId });
 */
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
 * The client `createClient` makes of options of type `O`: a `Client` in which each area whose id `O` lacks
 * (`objectStorageId`, `storageId`, `gameId`) has the type `MissingOption<…>`, so that using it does not compile.
 * (Not a generic `Client<O>`: TypeScript would compare two of those by their type argument alone, and let one
 * without an id pass for a `Client`.)
 *
 * @example
 * const client: ClientOf<{ baseUrl: string; authenticationId: string; clientKey: string; gameId: string }> = createClient({ baseUrl, authenticationId, clientKey, gameId });
 * await client.leaderboards.top('high-score', 10); // client.db does not compile
 */
export type ClientOf<O extends ClientOptions> = Omit<Client, 'core' | 'db' | 'files' | 'leaderboards'> & {
  core: Core<O>;
  db: AreaOf<O, 'objectStorageId', Db>;
  files: FilesOf<O, Files>;
  leaderboards: AreaOf<O, 'gameId', Leaderboards>;
};

/**
 * Creates a client of every area of the service. An app that uses one area can import it alone
 * (`@basekit/sdk/db` with `@basekit/sdk/core`) to keep its bundle small. The database, the file storage and the
 * leaderboards need their ids (`objectStorageId`, `storageId`, `gameId`): without one, that area does not compile,
 * and at run time its calls reject with `MissingOptionError` before sending anything.
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
export function createClient<O extends ClientOptions>(options: O & KnownOptions<O>): ClientOf<NoInfer<O>> {
  const core = createCore<O>(options);
  return {
    core,
    auth: createAuth(core),
    db: createDb(core),
    files: createFiles(core),
    transcoder: createTranscoder(core),
    leaderboards: createLeaderboards(core),
  };
}
