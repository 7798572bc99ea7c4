import createFetchClient from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import type { Core, HttpClient } from './core.js';
import { MissingOptionError } from './errors.js';

/**
 * The options that name the project's database, file storage and game: each of those areas sends its own.
 *
 * @example
 * const needed: AreaId[] = ['objectStorageId', 'storageId', 'gameId'];
 * const missing = needed.filter((option) => !options[option]);
 */
export type AreaId = 'objectStorageId' | 'storageId' | 'gameId';

/** Each id's area and header. */
const AREAS: Record<AreaId, [area: string, header: string]> = {
  objectStorageId: ['db', 'X-Service-Object-Storage-Id'],
  storageId: ['files', 'X-Service-Storage-Id'],
  gameId: ['leaderboards', 'X-Service-Game-Id'],
};

/** The error of a call to an area whose id the client was not given. */
export function missingOption(option: AreaId): MissingOptionError {
  return new MissingOptionError(
    option,
    `client.${AREAS[option][0]} needs the ${option} option, which this client was created without: pass ${option} to createClient`,
  );
}

/**
 * The openapi-fetch client of an area: it sends the area's id (`option`) and the session's token to `baseUrl`.
 * Without the id, every call rejects with a `MissingOptionError` that names it, before anything is sent (rather than
 * the service's 404 for the missing header, which reads like a missing row).
 *
 * @example
 * const http = areaHttp(core, core.options.baseUrl, 'gameId');
 */
export function areaHttp(core: Core, baseUrl: string, option: AreaId): HttpClient {
  const id = core.options[option];
  if (id) return core.http(baseUrl, { [AREAS[option][1]]: id });
  const refusing = createFetchClient<paths>({ baseUrl });
  refusing.use({
    onRequest: () => {
      throw missingOption(option);
    },
  });
  return refusing;
}

declare const missing: unique symbol;

/**
 * The type of an area on a client created without its id: every use of it is a compile error that names the
 * option, e.g. `Property 'table' does not exist on type 'MissingOption<"objectStorageId">'`. (At run time its calls
 * reject with `MissingOptionError`.)
 *
 * @example
 * const client = createClient({ baseUrl, authenticationId, clientKey }); // no objectStorageId
 * client.db.table('Note'); // does not compile: MissingOption<"objectStorageId">
 */
export interface MissingOption<Option extends AreaId> {
  readonly [missing]: Option;
}

/**
 * Whether options of type `O` give `K`: false only when `K` is surely absent (not a key of `O`, or `undefined`), so
 * a client made from a plain `ClientOptions` keeps every area.
 */
type Gives<O, K extends PropertyKey> = 0 extends 1 & O
  ? true
  : K extends keyof O
    ? [O[K]] extends [undefined]
      ? false
      : true
    : false;

/**
 * An area's type on a client created with options `O`: `Area` when `O` gives the area's id `K`, else
 * `MissingOption<K>`, whose every use is a compile error naming `K`.
 *
 * @example
 * type NotesDb = AreaOf<{ baseUrl: string; authenticationId: string; clientKey: string; objectStorageId: string }, 'objectStorageId', Db>; // Db
 */
export type AreaOf<O, K extends AreaId, Area> = Gives<O, K> extends true ? Area : MissingOption<K>;

/**
 * The file storage on a client created with options `O`: all of it with `storageId`; with only a `bucket`, its
 * downloads (public, they need no id); else `MissingOption<'storageId'>`.
 *
 * @example
 * const photos = createClient({ baseUrl, authenticationId, clientKey, bucket: 'photos' });
 * photos.files.downloadUrl('cat.jpg'); // compiles; photos.files.upload(…) does not
 */
export type FilesOf<O, Files extends { download: unknown; downloadUrl: unknown }> =
  Gives<O, 'storageId'> extends true
    ? Files
    : Gives<O, 'bucket'> extends true
      ? Pick<Files, 'download' | 'downloadUrl'> & MissingOption<'storageId'>
      : MissingOption<'storageId'>;
