import { COST, type QueryBudget } from './budget.js';
import type { PathTree } from './path-tree.js';
import type { Row, Table } from '../state.js';
import { isTyped } from '../values/values.js';

/** About the bytes of one pointer in an answer, `{"__type":"Pointer","className":"…","_id":"…"},`. */
const POINTER_BYTES = 64;

/**
 * A row as the API shows it: each relation column as the array of pointers to its related rows, `[]` when it has
 * none (the contract's `DatabaseRow`: a relation "behaves like an array of pointers"; the service's published clients read it so). The
 * stored row keeps a `{__type: "Relation", className}` marker; the members live beside the rows. The whole relation
 * is shown, however large: a `budget` (queries) pays for its pointers as answer bytes, and `keep` (the `keys`
 * parameter) leaves out the relation columns it does not keep without building them.
 *
 * @example
 * showRelations(table, row); // { _id: 'p1', tags: [{ __type: 'Pointer', className: 'Tag', _id: 't1' }], … }
 */
export function showRelations(
  table: Table | undefined,
  row: Row,
  { keep, budget }: { keep?: PathTree; budget?: QueryBudget } = {},
): Row {
  const byColumn = table?.relations.get(row._id);
  if (!byColumn) return row;
  let shown: Row | undefined;
  for (const [column, ids] of byColumn) {
    const marker = row[column];
    if (!isTyped(marker, 'Relation') || (keep && !keep.has(column))) continue;
    budget?.charge(Math.ceil((ids.size * POINTER_BYTES) / 1024) * COST.outputKiB);
    const className = marker['className'];
    shown ??= { ...row };
    shown[column] = Array.from(ids, (_id) => ({ __type: 'Pointer', className, _id }));
  }
  return shown ?? row;
}
