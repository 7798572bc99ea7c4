import type { Row, Table } from '../state.js';
import { columnReader } from '../values/values.js';

/** The values an index holds: one scalar type per column, so that `<` orders them exactly as `compareValues` does. */
export type Scalar = number | string | boolean;

/** The JavaScript type of a column's values where the column can be indexed (user columns of one scalar type). */
const SCALAR_COLUMN: Record<string, string> = { Number: 'number', String: 'string', Boolean: 'boolean' };

/**
 * One column's ordered index: its rows sorted by value, rows of equal value in creation order. Only rows whose value
 * has the column's type are in it: null and missing values match no clause an index serves, and are left out.
 * Parallel arrays, not an array of entries: about 24 bytes an entry instead of about 50. Each entry keeps its row's
 * creation sequence beside it, so that rows gathered from the index are put back in creation order without looking
 * each one up in the table's `sequence` (a lookup a row, in random order, cost more than the visit it saves).
 */
export interface ColumnIndex {
  readonly type: string;
  readonly values: Scalar[];
  readonly seqs: number[];
  readonly rows: Row[];
}

/**
 * A table's indexes, and each row's place in creation order (ties of an index and results without `order` follow it).
 * A row keeps its place for good, and its entry is never taken out: so a copy of the table (a named snapshot, whose
 * rows are the same objects) shares `sequence` instead of copying it, and entries of rows gone go with the rows.
 */
interface TableIndexes {
  readonly sequence: WeakMap<Row, number>;
  next: number;
  readonly columns: Map<string, ColumnIndex>;
}

// Beside the table, not in it: a table read from a snapshot or a journal starts without indexes and builds them on use.
const byTable = new WeakMap<Table, TableIndexes>();

/** The type an index on `column` holds, or undefined when the column cannot be indexed. */
export function indexableType(table: Table, column: string): string | undefined {
  const type = table.columns.get(column)?.type;
  return type && SCALAR_COLUMN[type];
}

function tableIndexes(table: Table): TableIndexes {
  let indexes = byTable.get(table);
  if (!indexes) {
    const sequence = new WeakMap<Row, number>();
    let next = 0;
    for (const row of table.rows.values()) sequence.set(row, next++);
    indexes = { sequence, next, columns: new Map() };
    byTable.set(table, indexes);
  }
  return indexes;
}

/** The first position of [from, to) that is not `before` (binary search: positions before it all are). */
function firstPosition(from: number, to: number, before: (position: number) => boolean): number {
  let [low, high] = [from, to];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (before(mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The position of the entry (value, seq): rows of equal value sort by their creation sequence. */
function position(index: ColumnIndex, value: Scalar, seq: number): number {
  const { values, seqs } = index;
  return firstPosition(0, values.length, (i) => values[i]! < value || (values[i] === value && seqs[i]! < seq));
}

/** The first position of [from, to) whose value is greater than `value`. */
export const upperBound = (index: ColumnIndex, value: Scalar, from = 0, to = index.values.length): number =>
  firstPosition(from, to, (i) => index.values[i]! <= value);

/** The first position of [from, to) whose value is not less than `value`. */
export const lowerBound = (index: ColumnIndex, value: Scalar, from = 0, to = index.values.length): number =>
  firstPosition(from, to, (i) => index.values[i]! < value);

function build(indexes: TableIndexes, table: Table, column: string, type: string): ColumnIndex {
  const read = columnReader(column);
  const values: Scalar[] = [];
  const rows: Row[] = [];
  for (const row of table.rows.values()) {
    const value = read(row);
    if (typeof value !== type) continue;
    values.push(value as Scalar);
    rows.push(row);
  }
  // Positions, not [value, row] pairs: a third faster at 1,000,000 rows. The rows were read in creation order, and
  // the sort is stable, so equal values keep that order.
  const order = Array.from(values, (_, i) => i).sort((a, b) =>
    values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0,
  );
  return {
    type,
    values: order.map((i) => values[i]!),
    seqs: order.map((i) => indexes.sequence.get(rows[i]!)!),
    rows: order.map((i) => rows[i]!),
  };
}

/**
 * The index of `column`, built on first use (one sort of the column's values) and kept up to date by every write
 * from then on; undefined when the column cannot be indexed.
 */
export function columnIndex(table: Table, column: string): ColumnIndex | undefined {
  const type = indexableType(table, column);
  if (!type) return undefined;
  const indexes = tableIndexes(table);
  let index = indexes.columns.get(column);
  if (!index) {
    index = build(indexes, table, column, type);
    indexes.columns.set(column, index);
  }
  return index;
}

/**
 * Puts the entry (value, seq, row) in the index (`add`), or takes it out; a value of another type (null, missing)
 * has no entry.
 */
function place(index: ColumnIndex, value: unknown, seq: number, row: Row, add: boolean): void {
  if (typeof value !== index.type) return;
  const at = position(index, value as Scalar, seq);
  if (add) {
    index.values.splice(at, 0, value as Scalar);
    index.seqs.splice(at, 0, seq);
    index.rows.splice(at, 0, row);
  } else if (index.rows[at] === row) {
    index.values.splice(at, 1);
    index.seqs.splice(at, 1);
    index.rows.splice(at, 1);
  }
}

/** Puts a row just added to the table into its indexes (it is the newest row). */
export function indexNewRow(table: Table, row: Row): void {
  const indexes = byTable.get(table);
  if (!indexes) return;
  const seq = indexes.next++;
  indexes.sequence.set(row, seq);
  for (const [column, index] of indexes.columns) place(index, columnReader(column)(row), seq, row, true);
}

/**
 * Puts `next` in the place of `row` in the table's indexes (a write replaces a row whole, see `rows.ts`): in the index
 * of a column whose value is the same, only the reference changes; the others move the entry (moving one costs a
 * memory move of the entries after it, so unchanged columns are left where they are).
 */
export function replaceIndexedRow(table: Table, row: Row, next: Row): void {
  const indexes = byTable.get(table);
  const seq = indexes?.sequence.get(row);
  if (seq === undefined) return;
  const moved: [ColumnIndex, unknown][] = [];
  for (const [column, index] of indexes!.columns) {
    const read = columnReader(column);
    const [old, value] = [read(row), read(next)];
    if (value !== old) {
      place(index, old, seq, row, false);
      moved.push([index, value]);
    } else if (typeof old === index.type) {
      const at = position(index, old as Scalar, seq);
      if (index.rows[at] === row) index.rows[at] = next;
    }
  }
  indexes!.sequence.set(next, seq);
  for (const [index, value] of moved) place(index, value, seq, next, true);
}

/**
 * The indexes of `table` as indexes of `copy`, a copy of it (a named snapshot) whose rows are the same objects: the
 * copy starts with them built instead of building them again on its first query, and shares the creation order.
 */
export function copyIndexes(table: Table, copy: Table): void {
  const indexes = byTable.get(table);
  if (!indexes) return;
  const columns = new Map<string, ColumnIndex>();
  for (const [column, { type, values, seqs, rows }] of indexes.columns)
    columns.set(column, { type, values: values.slice(), seqs: seqs.slice(), rows: rows.slice() });
  byTable.set(copy, { sequence: indexes.sequence, next: indexes.next, columns });
}

/** Takes a deleted row out of its indexes. */
export function unindexRow(table: Table, row: Row): void {
  const indexes = byTable.get(table);
  const seq = indexes?.sequence.get(row);
  if (seq === undefined) return;
  for (const [column, index] of indexes!.columns) place(index, columnReader(column)(row), seq, row, false);
}

/** Drops a table's indexes when its columns change (a rename, a drop): they are built again on use. */
export const dropIndexes = (table: Table): void => void byTable.delete(table);
