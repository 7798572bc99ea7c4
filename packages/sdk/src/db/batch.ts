import type { CallOptions } from '../core/options.js';
import type { ErrorBody } from '../core/errors.js';
import type { DbContext } from './context.js';
import type { Table } from './table.js';
import type { Changes, Created, NewRow, Updated } from './types.js';
import { decode, encode } from './values.js';

/**
 * The most requests the service takes in one batch; `Batch.run` splits larger batches.
 *
 * @example
 * const requests = Math.ceil(batch.size / BATCH_LIMIT);
 */
export const BATCH_LIMIT = 50;

/**
 * One item's outcome, in the service's shape (the contract's `runBatch`), dates as `Date`.
 *
 * @example
 * const results: BatchResult[] = await client.db.batch().create('Note', { title: 'a' }).delete('Note', 'n1').run();
 * for (const result of results) if ('error' in result) console.warn(result.error.error);
 */
export type BatchResult = { success: Created | Updated | Record<string, never> } | { error: ErrorBody };

interface BatchItem {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** A table, or its name. */
type TableRef = { readonly name: string } | string;
const nameOf = (table: TableRef) => (typeof table === 'string' ? table : table.name);
const rowPath = (table: TableRef, id: string) =>
  `/classes/${encodeURIComponent(nameOf(table))}/${encodeURIComponent(id)}`;

/**
 * Collects creates, updates and deletes and runs them as batch requests (the contract's `runBatch`) of at most 50 each, in
 * order. `run` answers one result per item, in the order the items were added. When a whole request fails
 * (network, session), `run` throws and the requests sent before it stay applied.
 *
 * @example
 * const batch = db.batch();
 * for (const title of titles) batch.create(notes, { title });
 * batch.delete(notes, oldId);
 * const results = await batch.run();
 * const failed = results.filter((r) => 'error' in r);
 */
export class Batch {
  readonly #items: BatchItem[] = [];

  constructor(private readonly db: DbContext) {}

  /** How many items are collected. */
  get size(): number {
    return this.#items.length;
  }

  /** Adds a create. */
  create<T extends object>(table: Table<T>, values: NewRow<T>): this;
  create(table: string, values: NewRow): this;
  create(table: TableRef, values: object): this {
    this.#items.push({ method: 'POST', path: `/classes/${encodeURIComponent(nameOf(table))}`, body: encode(values) });
    return this;
  }

  /** Adds an update. */
  update<T extends object>(table: Table<T>, id: string, changes: Changes<T>): this;
  update(table: string, id: string, changes: Changes): this;
  update(table: TableRef, id: string, changes: object): this {
    this.#items.push({ method: 'PUT', path: rowPath(table, id), body: encode(changes) });
    return this;
  }

  /** Adds a delete. */
  delete(table: TableRef, id: string): this {
    this.#items.push({ method: 'DELETE', path: rowPath(table, id) });
    return this;
  }

  /** Sends the items, 50 per request, one request after the other; one result per item, in order. */
  async run({ signal }: CallOptions = {}): Promise<BatchResult[]> {
    const results: BatchResult[] = [];
    for (let start = 0; start < this.#items.length; start += BATCH_LIMIT) {
      const requests = this.#items.slice(start, start + BATCH_LIMIT);
      const answer = await this.db.core.call(
        this.db.http.POST('/object-storage/batch', { body: { requests } as never, signal }),
      );
      for (const item of answer as BatchResult[])
        results.push('success' in item ? { success: decode(item.success, true) as Created | Updated } : item);
    }
    return results;
  }
}
