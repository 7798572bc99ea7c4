/** A reference to a row of a table (spec 2.4). Make one with `pointer(table, id)`. */
export interface Pointer<Table extends string = string> {
  __type: 'Pointer';
  className: Table;
  _id: string;
}

/** Marks a column type as a relation, so that it is told apart from a plain array of pointers; never present at run time. */
declare const relationOf: unique symbol;

/**
 * How a relation column reads back: the pointers to its related rows, `[]` when it has none (spec 2.4: a relation
 * "behaves like an array of pointers"). It is changed only with `op.addRelation` and `op.removeRelation`.
 */
export type Relation<Table extends string = string> = Pointer<Table>[] & { readonly [relationOf]: Table };

/** Who may read and write a row: principal (`"*"` for everyone, or a user id) to permissions. */
export type ACL = Record<string, { read?: boolean; write?: boolean }>;

/** The columns the service keeps on every row. */
export interface SystemColumns {
  _id: string;
  createdAt: Date;
  updatedAt: Date;
  ACL?: ACL;
}

/** The row type of a table declared without one: any columns. */
export type Data = Record<string, unknown>;

/** A row as read back: your columns and the system columns, dates as `Date`. */
export type Row<T extends object = Data> = T & SystemColumns;

/** `{"__op": "Increment"}`: atomic add to a number column. */
export interface Increment {
  readonly __op: 'Increment';
  readonly amount: number;
}
/** `Add`, `AddUnique`, `Remove`: atomic changes of an array column. */
export interface ArrayOperator<E> {
  readonly __op: 'Add' | 'AddUnique' | 'Remove';
  readonly objects: E[];
}
/** `AddRelation`, `RemoveRelation`: atomic changes of a relation column. */
export interface RelationOperator<Table extends string = string> {
  readonly __op: 'AddRelation' | 'RemoveRelation';
  readonly objects: Pointer<Table>[];
}
/** `{"__op": "Delete"}`: removes an optional column from the row. */
export interface Delete {
  readonly __op: 'Delete';
}

type RelationKeys<T> = { [K in keyof T]-?: NonNullable<T[K]> extends Relation ? K : never }[keyof T];
type TargetOf<V> = NonNullable<V> extends Relation<infer Table> ? Table : never;

/** The operator a column of type `V` accepts: `Increment` for numbers, the array operators for arrays. */
export type OperatorFor<V> =
  NonNullable<V> extends number ? Increment : NonNullable<V> extends readonly (infer E)[] ? ArrayOperator<E> : never;

/**
 * The body of `create`: every required column of `T`, relation columns as `op.addRelation(...)`, and an
 * optional ACL. Dates may be given as `Date`.
 */
export type NewRow<T extends object = Data> = Omit<T, RelationKeys<T> | keyof SystemColumns> & {
  [K in RelationKeys<T>]?: RelationOperator<TargetOf<T[K]>>;
} & { ACL?: ACL };

/**
 * The body of `update`: only the columns to change, each a value or an operator that fits its type; `op.delete()`
 * only on optional columns.
 */
export type Changes<T extends object = Data> = {
  [K in Exclude<keyof T, keyof SystemColumns>]?: NonNullable<T[K]> extends Relation
    ? RelationOperator<TargetOf<T[K]>>
    : T[K] | OperatorFor<T[K]> | (undefined extends T[K] ? Delete : never);
} & { ACL?: ACL };

/** What `create` answers. */
export interface Created {
  _id: string;
  createdAt: Date;
}

/** What `update` answers. */
export interface Updated {
  updatedAt: Date;
}
