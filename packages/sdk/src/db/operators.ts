import type { ArrayOperator, Delete, Increment, Pointer, RelationOperator } from './types.js';

/**
 * The atomic update operators (docs/database.md#update-operators), for `update` bodies (and `addRelation` in `create` bodies too).
 *
 * @example
 * await notes.update(id, { views: op.increment(), tags: op.addUnique('news'), draft: op.delete() });
 */
export const op = {
  /** Adds `amount` (default 1; negative subtracts) to a number column. */
  increment: (amount = 1): Increment => ({ __op: 'Increment', amount }),
  /** Appends values to an array column. */
  add: <E>(...objects: E[]): ArrayOperator<E> => ({ __op: 'Add', objects }),
  /** Appends the values an array column does not hold yet. */
  addUnique: <E>(...objects: E[]): ArrayOperator<E> => ({ __op: 'AddUnique', objects }),
  /** Removes every occurrence of the values from an array column. */
  remove: <E>(...objects: E[]): ArrayOperator<E> => ({ __op: 'Remove', objects }),
  /** Removes the column from the row. */
  delete: (): Delete => ({ __op: 'Delete' }),
  /** Links rows to a relation column. */
  addRelation: <Table extends string>(...objects: Pointer<Table>[]): RelationOperator<Table> => ({
    __op: 'AddRelation',
    objects,
  }),
  /** Unlinks rows from a relation column. */
  removeRelation: <Table extends string>(...objects: Pointer<Table>[]): RelationOperator<Table> => ({
    __op: 'RemoveRelation',
    objects,
  }),
};
