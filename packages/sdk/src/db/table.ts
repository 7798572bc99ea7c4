import type { CallOptions } from '../core/options.js';
import type { DbContext } from './context.js';
import { Query } from './query.js';
import type { Changes, Created, Data, NewRow, Row, Updated } from './types.js';
import { decode, encode } from './values.js';

/**
 * One table of the database (openapi/areas/database.yaml): create, read, update and delete rows, and queries. Get one with
 * `db.table<Row>('Name')`; the row type checks column names and values at compile time.
 *
 * @example
 * interface Note { title: string; views?: number; tags?: string[] }
 * const notes = db.table<Note>('Note');
 * const { _id } = await notes.create({ title: 'Hello' });
 * await notes.update(_id, { views: op.increment() });
 */
export class Table<T extends object = Data> {
  constructor(
    private readonly db: DbContext,
    /** The table's name. */
    readonly name: string,
  ) {}

  /** A new query on this table. */
  query(): Query<T> {
    return new Query<T>(this.db, this.name);
  }

  /**
   * Creates a row (the contract's `createRow`).
   *
   * @example
   * const { _id, createdAt } = await notes.create({ title: 'Hello', due: new Date() });
   */
  async create(values: NewRow<T>, { signal }: CallOptions = {}): Promise<Created> {
    const { http, core } = this.db;
    const path = { tableName: this.name };
    const created = await core.call(
      http.POST('/object-storage/classes/{tableName}', { params: { path }, body: encode(values) as never, signal }),
    );
    return decode(created, true) as Created;
  }

  /**
   * The row with this id (the contract's `getRow`); `NotFoundError` when there is none.
   *
   * @example
   * const note = await notes.get(id);
   */
  async get(id: string, { signal }: CallOptions = {}): Promise<Row<T>> {
    const { http, core } = this.db;
    const path = { tableName: this.name, objectId: id };
    const row = await core.call(
      http.GET('/object-storage/classes/{tableName}/{objectId}', { params: { path }, signal }),
    );
    return decode(row, true) as Row<T>;
  }

  /**
   * Changes some columns of a row (the contract's `updateRow`): values, or operators from `op`.
   *
   * @example
   * await notes.update(id, { title: 'Renamed', tags: op.addUnique('news') });
   */
  async update(id: string, changes: Changes<T>, { signal }: CallOptions = {}): Promise<Updated> {
    const { http, core } = this.db;
    const path = { tableName: this.name, objectId: id };
    const updated = await core.call(
      http.PUT('/object-storage/classes/{tableName}/{objectId}', {
        params: { path },
        body: encode(changes) as never,
        signal,
      }),
    );
    return decode(updated, true) as Updated;
  }

  /** Deletes a row (the contract's `deleteRow`). */
  async delete(id: string, { signal }: CallOptions = {}): Promise<void> {
    const { http, core } = this.db;
    const path = { tableName: this.name, objectId: id };
    await core.call(http.DELETE('/object-storage/classes/{tableName}/{objectId}', { params: { path }, signal }));
  }

  /**
   * Deletes every row of the table (the contract's `deleteAllRows`) and returns how many there were. Master only.
   *
   * @example
   * const deleted = await admin.db.table('Note').deleteAll();
   */
  async deleteAll({ signal }: CallOptions = {}): Promise<number> {
    const { http, core } = this.db;
    const answer = await core.call(
      http.DELETE('/object-storage/classes/{tableName}', { params: { path: { tableName: this.name } }, signal }),
    );
    return answer.deletedCount;
  }
}
