import { NotFoundError } from '../core/errors.js';
import type { CallOptions } from '../core/options.js';
import type { DbContext } from './context.js';
import type { Data, Pointer, Row, SystemColumns } from './types.js';
import { decode, encode } from './values.js';

/**
 * A column of `T` or a system column.
 *
 * @example
 * const column: Key<{ title: string }> = 'title'; // or a system column: '_id', 'createdAt', …
 */
export type Key<T> = Extract<keyof T, string> | Extract<keyof SystemColumns, string>;
/**
 * The type of a column's values (any value for tables declared without a row type).
 *
 * @example
 * type Created = ValueOf<{ title: string }, 'createdAt'>; // Date
 */
export type ValueOf<T, K> = K extends keyof SystemColumns
  ? SystemColumns[K]
  : K extends keyof T
    ? unknown extends T[K]
      ? unknown
      : NonNullable<T[K]>
    : never;
/**
 * What equality compares a column with: a value of it, or for array columns one element (the array contains it).
 *
 * @example
 * notes.query().equalTo('tags', 'news'); // an array column compares with one of its elements too
 */
export type Comparable<V> = V extends readonly (infer E)[] ? V | E : V;
type ElementOf<V> = V extends readonly (infer E)[] ? E : unknown;
type StringKey<T> = {
  [K in Key<T>]: ValueOf<T, K> extends string ? K : unknown extends ValueOf<T, K> ? K : never;
}[Key<T>];

/**
 * The JSON query of docs/database.md#queries.
 *
 * @example
 * const where: Where = notes.query().greaterThan('views', 10).where; // { views: { $gt: 10 } }
 */
export type Where = Record<string, unknown>;

/**
 * A query on another table, used inside this one.
 *
 * @example
 * const popular = client.db.table('Author').query().greaterThan('followers', 1000);
 * await notes.query().matchesQuery('author', popular).find();
 */
export interface SubQuery {
  readonly className: string;
  readonly where: Where;
}

/** The URL parameters of the contract's `queryRows`. */
interface Params {
  order?: string;
  limit?: number;
  skip?: number;
  keys?: string;
  include?: string;
  count?: '1';
  sample?: number;
}

/**
 * `find` with a total: the rows of this page and the number of all matching rows.
 *
 * @example
 * const { results, count } = await notes.query().limit(10).findAndCount();
 */
export interface Counted<T extends object> {
  results: Row<T>[];
  count: number;
}

const isConstraints = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).every((key) => key.startsWith('$'));

/**
 * A query on one table (docs/database.md#queries and the contract's `queryRows`), built with chainable methods and run with `find`, `first`, `count`,
 * `get`, or `for await`. With a row type, column names and values are checked by the compiler.
 *
 * @example
 * const notes = db.table<Note>('Note');
 * const recent = await notes.query().equalTo('done', false).greaterThan('createdAt', since).descending('createdAt').limit(20).find();
 * for await (const note of notes.query().exists('tags')) console.log(note.title);
 */
export class Query<T extends object = Data> {
  #where: Where = {};
  #params: Params = {};

  constructor(
    private readonly db: DbContext,
    /** The table queried. */
    readonly className: string,
  ) {}

  /** The JSON query as it is sent (dates encoded). */
  get where(): Where {
    return structuredClone(this.#where);
  }

  #constrain(key: string, operator: string, value: unknown): this {
    const current = this.#where[key];
    this.#where[key] = { ...(isConstraints(current) ? current : {}), [operator]: encode(value) };
    return this;
  }

  /** Rows whose column equals `value`; for an array column, rows whose array contains it. */
  equalTo<K extends Key<T>>(key: K, value: Comparable<ValueOf<T, K>>): this {
    this.#where[key] = encode(value);
    return this;
  }
  /** `$ne` */
  notEqualTo<K extends Key<T>>(key: K, value: Comparable<ValueOf<T, K>>): this {
    return this.#constrain(key, '$ne', value);
  }
  /** `$lt` */
  lessThan<K extends Key<T>>(key: K, value: ValueOf<T, K>): this {
    return this.#constrain(key, '$lt', value);
  }
  /** `$lte` */
  lessThanOrEqualTo<K extends Key<T>>(key: K, value: ValueOf<T, K>): this {
    return this.#constrain(key, '$lte', value);
  }
  /** `$gt` */
  greaterThan<K extends Key<T>>(key: K, value: ValueOf<T, K>): this {
    return this.#constrain(key, '$gt', value);
  }
  /** `$gte` */
  greaterThanOrEqualTo<K extends Key<T>>(key: K, value: ValueOf<T, K>): this {
    return this.#constrain(key, '$gte', value);
  }
  /** `$in`: the column's value is one of `values`. */
  containedIn<K extends Key<T>>(key: K, values: Comparable<ValueOf<T, K>>[]): this {
    return this.#constrain(key, '$in', values);
  }
  /** `$nin`: the column's value is none of `values`. */
  notContainedIn<K extends Key<T>>(key: K, values: Comparable<ValueOf<T, K>>[]): this {
    return this.#constrain(key, '$nin', values);
  }
  /** `$all`: the array column holds every one of `values`. */
  containsAll<K extends Key<T>>(key: K, values: ElementOf<ValueOf<T, K>>[]): this {
    return this.#constrain(key, '$all', values);
  }
  /** `$exists: true`: the column has a value. */
  exists(key: Key<T>): this {
    return this.#constrain(key, '$exists', true);
  }
  /** `$exists: false`: the column has no value. */
  doesNotExist(key: Key<T>): this {
    return this.#constrain(key, '$exists', false);
  }
  /** `$regex`: the string column matches the pattern; a `RegExp`'s flags `i`, `m` and `s` are sent as `$options`. */
  matches(key: StringKey<T>, pattern: RegExp | string): this {
    if (typeof pattern === 'string') return this.#constrain(key, '$regex', pattern);
    const options = pattern.flags.replace(/[^ims]/g, '');
    this.#constrain(key, '$regex', pattern.source);
    return options ? this.#constrain(key, '$options', options) : this;
  }
  /** `$inQuery`: the pointer column points to a row that `query` (on the pointed table) matches. */
  matchesQuery(key: Key<T>, query: SubQuery): this {
    return this.#constrain(key, '$inQuery', { where: query.where, className: query.className });
  }
  /** `$notInQuery`: the pointer column points to no row that `query` (on the pointed table) matches. */
  doesNotMatchQuery(key: Key<T>, query: SubQuery): this {
    return this.#constrain(key, '$notInQuery', { where: query.where, className: query.className });
  }
  /** `$select`: the column's value is the `queryKey` of some row `query` matches. */
  matchesKeyInQuery<Q extends object>(key: Key<T>, queryKey: Key<Q>, query: Query<Q>): this {
    return this.#constrain(key, '$select', {
      query: { className: query.className, where: query.#where },
      key: queryKey,
    });
  }
  /** `$dontSelect`: the column's value is the `queryKey` of no row `query` matches. */
  doesNotMatchKeyInQuery<Q extends object>(key: Key<T>, queryKey: Key<Q>, query: Query<Q>): this {
    return this.#constrain(key, '$dontSelect', {
      query: { className: query.className, where: query.#where },
      key: queryKey,
    });
  }
  /**
   * `$relatedTo`: the rows of this table linked to `row` through its relation column `key`.
   *
   * @example
   * const members = await db.table('User').query().relatedTo(pointer('Team', teamId), 'members').find();
   */
  relatedTo(row: Pointer, key: string): this {
    this.#where['$relatedTo'] = { object: row, key };
    return this;
  }
  /**
   * `$or`: rows that match any of the queries (each built on the same table), besides this query's other constraints.
   *
   * @example
   * notes.query().or((q) => q.equalTo('pinned', true), (q) => q.greaterThan('views', 100));
   */
  or(...queries: (Query<T> | ((query: Query<T>) => Query<T>))[]): this {
    const built = queries.map((q) => (typeof q === 'function' ? q(new Query<T>(this.db, this.className)) : q).#where);
    this.#where['$or'] = [...((this.#where['$or'] as Where[] | undefined) ?? []), ...built];
    return this;
  }

  /** Sorts by these columns, ascending, replacing any order set before. */
  ascending(...keys: Key<T>[]): this {
    return this.#order(keys, '', false);
  }
  /** Sorts by these columns, descending, replacing any order set before. */
  descending(...keys: Key<T>[]): this {
    return this.#order(keys, '-', false);
  }
  /** Then sorts by these columns, ascending. */
  addAscending(...keys: Key<T>[]): this {
    return this.#order(keys, '', true);
  }
  /** Then sorts by these columns, descending. */
  addDescending(...keys: Key<T>[]): this {
    return this.#order(keys, '-', true);
  }
  #order(keys: string[], sign: string, add: boolean): this {
    const order = keys.map((key) => sign + key);
    this.#params.order = [...(add && this.#params.order ? [this.#params.order] : []), ...order].join(',');
    return this;
  }

  /** At most `n` rows (the service's default is 100, its maximum 1000). */
  limit(n: number): this {
    this.#params.limit = n;
    return this;
  }
  /** Skips the first `n` rows. */
  skip(n: number): this {
    this.#params.skip = n;
    return this;
  }
  /** Returns only these columns (and the system columns). */
  select(...keys: Key<T>[]): this {
    this.#params.keys = keys.join(',');
    return this;
  }
  /** Embeds the rows these pointer columns point to. */
  include(...keys: Key<T>[]): this {
    this.#params.include = keys.join(',');
    return this;
  }
  /** Returns `n` randomly chosen matching rows. */
  sample(n: number): this {
    this.#params.sample = n;
    return this;
  }

  async #run(
    params: Params,
    signal?: AbortSignal,
    where = this.#where,
  ): Promise<{ results: Row<T>[]; count?: number }> {
    const answer = await this.db.core.call(
      this.db.http.POST('/object-storage/classes/query/{tableName}', {
        params: { path: { tableName: this.className }, query: params },
        body: where,
        signal,
      }),
    );
    return decode(answer) as { results: Row<T>[]; count?: number };
  }

  /**
   * The matching rows.
   *
   * @example
   * const open = await notes.query().equalTo('done', false).find();
   */
  async find({ signal }: CallOptions = {}): Promise<Row<T>[]> {
    return (await this.#run(this.#params, signal)).results;
  }

  /** The first matching row, or undefined. */
  async first({ signal }: CallOptions = {}): Promise<Row<T> | undefined> {
    return (await this.#run({ ...this.#params, limit: 1 }, signal)).results[0];
  }

  /**
   * The number of matching rows (`count=1&limit=0`: no rows are sent).
   *
   * @example
   * const open = await notes.query().equalTo('done', false).count();
   */
  async count({ signal }: CallOptions = {}): Promise<number> {
    return (await this.#run({ ...this.#params, count: '1', limit: 0 }, signal)).count ?? 0;
  }

  /** One page of rows and the number of all matching rows (`count=1`). */
  async findAndCount({ signal }: CallOptions = {}): Promise<Counted<T>> {
    const { results, count = 0 } = await this.#run({ ...this.#params, count: '1' }, signal);
    return { results, count };
  }

  /**
   * The matching row with this id; throws `NotFoundError` when there is none. Keeps `select` and `include`.
   *
   * @example
   * const note = await notes.query().include('author').get(id);
   */
  async get(id: string, { signal }: CallOptions = {}): Promise<Row<T>> {
    const { results } = await this.#run({ ...this.#params, limit: 1 }, signal, { ...this.#where, _id: id });
    if (results[0]) return results[0];
    const operation = 'POST /object-storage/classes/query/{tableName}';
    throw new NotFoundError(404, 101, `no ${this.className} row ${id} matches the query`, {
      operation,
      method: 'POST',
      url: '',
    });
  }

  /**
   * Every matching row, fetched `pageSize` rows at a time (default: the query's `limit`, or 100) from the
   * query's `skip` on. Without an order of its own the rows come by `_id`, each page asking for the rows after the
   * last one seen (keyset paging): pages neither repeat nor skip rows, and a deep page costs the service what the
   * first did. With an order, pages follow by `skip`.
   *
   * @example
   * for await (const note of notes.query().all({ pageSize: 500 })) count += 1;
   */
  async *all({
    signal,
    pageSize = this.#params.limit ?? 100,
  }: CallOptions & { pageSize?: number } = {}): AsyncGenerator<Row<T>, void, undefined> {
    const keyset = this.#params.order === undefined;
    const params: Params = { ...this.#params, order: this.#params.order ?? '_id', limit: pageSize };
    for (let where = this.#where; ; ) {
      const { results } = await this.#run(params, signal, where);
      yield* results;
      if (results.length < pageSize) return;
      if (keyset) {
        where = { $and: [this.#where, { _id: { $gt: results[pageSize - 1]!._id } }] };
        delete params.skip;
      } else params.skip = (params.skip ?? 0) + pageSize;
    }
  }

  /**
   * Every matching row, page after page (as `all()`): a query is iterable with `for await`.
   *
   * @example
   * for await (const note of notes.query().equalTo('done', false)) console.log(note.title);
   */
  [Symbol.asyncIterator](): AsyncGenerator<Row<T>, void, undefined> {
    return this.all();
  }
}
