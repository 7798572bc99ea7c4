import { type Row, type Table, rowWrites } from '../state.js';

// How many rows of a table hold a value in each column: what the admin's table description shows (`tables.ts`).
// Counted in one pass over the rows when first asked, then kept up to date by every write (`rowWrites`), so that
// describing a table again costs its columns, not its rows. A table never described pays nothing on its writes, and
// this module loads with the first description. Kept beside the table, as its indexes are: a table read from a
// snapshot, an export or a journal, or copied from a named snapshot's to be written, is counted on first use.

const byTable = new WeakMap<Table, Map<string, number>>();

/** Whether `row` holds a value in `column`, a column of any type but a relation. */
const hasValue = (row: Row, column: string): boolean => Object.hasOwn(row, column) && row[column] !== undefined;

/**
 * Whether a row (its relations: `byColumn`) is related to at least one row through the relation column `column`:
 * the service shows a relation without members as `[]`, which counts as no value.
 */
const isRelated = (byColumn: Map<string, Set<string>> | undefined, column: string): boolean =>
  (byColumn?.get(column)?.size ?? 0) > 0;

const isRelation = (table: Table, column: string) => table.columns.get(column)?.type === 'Relation';

function holds(table: Table, row: Row, column: string): boolean {
  return isRelation(table, column) ? isRelated(table.relations.get(row._id), column) : hasValue(row, column);
}

/**
 * Column -> the number of rows holding a value in it, for each user-defined column of `table`.
 *
 * @example
 * valueCounts(table).get('author'); // 3
 */
export function valueCounts(table: Table): ReadonlyMap<string, number> {
  let counts = byTable.get(table);
  if (!counts) {
    counts = new Map([...table.columns.keys()].map((column) => [column, counted(table, column)]));
    byTable.set(table, counts);
  }
  return counts;
}

/** The rows holding a value in `column`, counted: a pass over the rows (a relation: over the rows related to any). */
function counted(table: Table, column: string): number {
  let count = 0;
  if (isRelation(table, column)) {
    for (const byColumn of table.relations.values()) if (isRelated(byColumn, column)) count++;
  } else for (const row of table.rows.values()) if (hasValue(row, column)) count++;
  return count;
}

/**
 * The watcher of row writes (`rowWrites`) while counts are kept: brings the counts of the written table up to date,
 * if it has any. Relations change in place as the write applies, so what the row held is read before it.
 */
function countingWrite(table: Table, row: Row | undefined, columns: readonly string[] = [...table.columns.keys()]) {
  const counts = byTable.get(table);
  if (!counts) return undefined;
  const held = columns.map((column) => row !== undefined && holds(table, row, column));
  return (written?: Row) => {
    columns.forEach((column, i) => {
      // The ACL and the system columns are every row's, not counted.
      if (!table.columns.has(column)) return;
      const holdsNow = written !== undefined && holds(table, written, column);
      if (holdsNow !== held[i]) counts.set(column, (counts.get(column) ?? 0) + (holdsNow ? 1 : -1));
    });
  };
}
rowWrites.watch = countingWrite;

/**
 * A column renamed (`to`) or dropped (no `to`) in every row: its count moves with it, or goes. The column's place
 * among the others does not matter here (the description follows `table.columns`).
 */
export function moveValueCount(table: Table, from: string, to?: string): void {
  const counts = byTable.get(table);
  if (!counts) return;
  if (to !== undefined) counts.set(to, counts.get(from) ?? 0);
  counts.delete(from);
}
