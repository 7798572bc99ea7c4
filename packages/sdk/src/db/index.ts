import type { Core } from '../core/core.js';
import { Batch } from './batch.js';
import { Table } from './table.js';
import type { Data } from './types.js';

export { Batch, BATCH_LIMIT, type BatchResult } from './batch.js';
export { op } from './operators.js';
export { Query, type Comparable, type Counted, type Key, type SubQuery, type ValueOf, type Where } from './query.js';
export { Table } from './table.js';
export type * from './types.js';
export { pointer } from './values.js';

/** The object database (spec 4.2 to 4.5). */
export interface Db {
  /** A table; give its row type to have columns and values checked. */
  table<T extends object = Data>(name: string): Table<T>;
  /** A new batch of creates, updates and deletes. */
  batch(): Batch;
}

/**
 * Creates the database client on a core; it sends `X-Service-Object-Storage-Id` and the session's token.
 *
 * @example
 * const db = createDb(createCore({ baseUrl, authenticationId, clientKey, objectStorageId }));
 * const notes = db.table<{ title: string }>('Note');
 * await notes.create({ title: 'Hello' });
 */
export function createDb(core: Core): Db {
  const { baseUrl, objectStorageId } = core.options;
  const context = {
    core,
    http: core.http(baseUrl, objectStorageId ? { 'X-Service-Object-Storage-Id': objectStorageId } : {}),
  };
  return {
    table: (name) => new Table(context, name),
    batch: () => new Batch(context),
  };
}
