import { copyIndexes } from '../indexes/indexes.js';
import { heldBySnapshot, type DatabaseState, type Table } from '../state.js';

/** The table of that name to write to: a table a named snapshot holds is replaced by a copy of its own first. */
export function writableTable(state: DatabaseState, name: string): Table | undefined {
  const table = state.tables.get(name);
  if (!table || !heldBySnapshot(table)) return table;
  const own = copyTable(table);
  state.tables.set(name, own);
  return own;
}

/** A table no later change of the original touches: its own maps, the same (never changed) rows, its indexes. */
function copyTable(table: Table): Table {
  const copy: Table = {
    columns: new Map(table.columns),
    rows: new Map(table.rows),
    relations: new Map(
      Array.from(table.relations, ([owner, byColumn]) => [
        owner,
        new Map(Array.from(byColumn, ([column, ids]) => [column, new Set(ids)])),
      ]),
    ),
  };
  copyIndexes(table, copy);
  return copy;
}
