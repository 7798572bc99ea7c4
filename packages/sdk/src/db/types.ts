/**
 * A reference to a row of a table (the contract's `DatabaseRow`). Make one with `pointer(table, id)`.
 *
 * @example
 * const author: Pointer<'Author'> = pointer('Author', 'a1');
 * await notes.create({ title: 'Hello', author });
 */
export interface Pointer<Table extends string = string> {
  __type: 'Pointer';
  className: Table;
  _id: string;
}

/** Marks a column type as a relation, so that it is told apart from a plain array of pointers; never present at run time. */
declare const relationOf: unique symbol;

/**
 * How a relation column reads back: the pointers to its related rows, `[]` when it has none (the contract's `DatabaseRow`: a relation
 * "behaves like an array of pointers"). It is changed only with `op.addRelation` and `op.removeRelation`.
 *
 * @example
 * interface Note { title: string; likes?: Relation<'User'> }
 * const note = await client.db.table<Note>('Note').get(id);
 * note.likes; // Pointer<'User'>[]
 */
export type Relation<Table extends string = string> = Pointer<Table>[] & { readonly [relationOf]: Table };

/**
 * Who may read and write a row: principal (`"*"` for everyone, or a user id) to permissions.
 *
 * @example
 * const acl: ACL = { '*': { read: true }, [me.userId]: { read: true, write: true } };
 * await notes.create({ title: 'Hello', ACL: acl });
 */
export type ACL = Record<string, { read?: boolean; write?: boolean }>;

/**
 * The columns the service keeps on every row.
 *
 * @example
 * const row = await notes.get(id);
 * console.log(row._id, row.createdAt.toISOString(), row.ACL);
 */
export interface SystemColumns {
  _id: string;
  createdAt: Date;
  updatedAt: Date;
  ACL?: ACL;
}

/**
 * The row type of a table declared without one: any columns.
 *
 * @example
 * const anything = client.db.table('Anything'); // Table<Data>
 * await anything.create({ any: 'column', count: 1 });
 */
export type Data = Record<string, unknown>;

/**
 * A row as read back: your columns and the system columns, dates as `Date`.
 *
 * @example
 * const row: Row<{ title: string }> = await client.db.table<{ title: string }>('Note').get(id);
 * row.title; row.updatedAt; // string, Date
 */
export type Row<T extends object = Data> = T & SystemColumns;

/**
 * `{"__op": "Increment"}`: atomic add to a number column.
 *
 * @example
 * await notes.update(id, { views: op.increment(1) }); // { __op: 'Increment', amount: 1 }
 */
export interface Increment {
  readonly __op: 'Increment';
  readonly amount: number;
}
/**
 * `Add`, `AddUnique`, `Remove`: atomic changes of an array column.
 *
 * @example
 * await notes.update(id, { tags: op.addUnique('news') }); // { __op: 'AddUnique', objects: ['news'] }
 */
export interface ArrayOperator<E> {
  readonly __op: 'Add' | 'AddUnique' | 'Remove';
  readonly objects: E[];
}
/**
 * `AddRelation`, `RemoveRelation`: atomic changes of a relation column.
 *
 * @example
 * await notes.update(id, { likes: op.addRelation(pointer('User', userId)) });
 */
export interface RelationOperator<Table extends string = string> {
  readonly __op: 'AddRelation' | 'RemoveRelation';
  readonly objects: Pointer<Table>[];
}
/**
 * `{"__op": "Delete"}`: removes an optional column from the row.
 *
 * @example
 * await notes.update(id, { due: op.delete() }); // the optional column `due` is gone
 */
export interface Delete {
  readonly __op: 'Delete';
}

type RelationKeys<T> = { [K in keyof T]-?: NonNullable<T[K]> extends Relation ? K : never }[keyof T];
type TargetOf<V> = NonNullable<V> extends Relation<infer Table> ? Table : never;

/**
 * The operator a column of type `V` accepts: `Increment` for numbers, the array operators for arrays.
 *
 * @example
 * type Views = OperatorFor<number>; // Increment
 * type Tags = OperatorFor<string[]>; // ArrayOperator<string>
 */
export type OperatorFor<V> =
  NonNullable<V> extends number ? Increment : NonNullable<V> extends readonly (infer E)[] ? ArrayOperator<E> : never;

/**
 * The body of `create`: every required column of `T`, relation columns as `op.addRelation(...)`, and an
 * optional ACL. Dates may be given as `Date`.
 *
 * @example
 * const draft: NewRow<{ title: string; views: number }> = { title: 'Hello', views: 0 };
 * await notes.create(draft);
 */
export type NewRow<T extends object = Data> = Omit<T, RelationKeys<T> | keyof SystemColumns> & {
  [K in RelationKeys<T>]?: RelationOperator<TargetOf<T[K]>>;
} & { ACL?: ACL };

/**
 * The body of `update`: only the columns to change, each a value or an operator that fits its type; `op.delete()`
 * only on optional columns.
 *
 * @example
 * const changes: Changes<{ title: string; views: number }> = { views: op.increment() };
 * await notes.update(id, changes);
 */
export type Changes<T extends object = Data> = {
  [K in Exclude<keyof T, keyof SystemColumns>]?: NonNullable<T[K]> extends Relation
    ? RelationOperator<TargetOf<T[K]>>
    : T[K] | OperatorFor<T[K]> | (undefined extends T[K] ? Delete : never);
} & { ACL?: ACL };

/**
 * What `create` answers.
 *
 * @example
 * const { _id, createdAt } = await notes.create({ title: 'Hello' });
 */
export interface Created {
  _id: string;
  createdAt: Date;
}

/**
 * What `update` answers.
 *
 * @example
 * const { updatedAt } = await notes.update(id, { title: 'Renamed' });
 */
export interface Updated {
  updatedAt: Date;
}
