/**
 * `@basekit/sdk/db`: the object database (tables, rows, queries, batches), for an app that imports it alone.
 *
 * @example
 * import { createCore } from '@basekit/sdk/core';
 * import { createDb } from '@basekit/sdk/db';
 * const db = createDb(createCore({ baseUrl, authenticationId, clientKey, objectStorageId }));
 *
 * @module @basekit/sdk/db
 */
import { areaHttp, type AreaOf } from '../core/area-ids.js';
import type { Core } from '../core/core.js';
import type { ClientOptions } from '../core/options.js';
import { Batch } from './batch.js';
import { Table } from './table.js';
import type { Data } from './types.js';

export { Batch, BATCH_LIMIT, type BatchResult } from './batch.js';
export { op } from './operators.js';
export { Query, type Comparable, type Counted, type Key, type SubQuery, type ValueOf, type Where } from './query.js';
export { Table } from './table.js';
export type * from './types.js';
export { pointer } from './values.js';

/**
 * The object database (openapi/areas/database.yaml).
 *
 * @example
 * const db: Db = client.db;
 * await db.table('Note').create({ title: 'Hello' });
 */
export interface Db {
  /** A table; give its row type to have columns and values checked. */
  table<T extends object = Data>(name: string): Table<T>;
  /** A new batch of creates, updates and deletes. */
  batch(): Batch;
}

/**
 * Creates the database client on a core; it sends `X-Service-Object-Storage-Id` and the session's token. On a core
 * without `objectStorageId` it does not compile (`MissingOption<'objectStorageId'>`), and its calls reject with
 * `MissingOptionError`.
 *
 * @example
 * const db = createDb(createCore({ baseUrl, authenticationId, clientKey, objectStorageId }));
 * const notes = db.table<{ title: string }>('Note');
 * await notes.create({ title: 'Hello' });
 */
export function createDb<O extends ClientOptions>(core: Core<O>): AreaOf<O, 'objectStorageId', Db> {
  const context = { core, http: areaHttp(core, core.options.baseUrl, 'objectStorageId') };
  const db: Db = {
    table: (name) => new Table(context, name),
    batch: () => new Batch(context),
  };
  return db as AreaOf<O, 'objectStorageId', Db>;
}
