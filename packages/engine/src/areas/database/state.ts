import type { StateSlice } from '../../shared/project.js';
import type { Acl } from './rows/acl.js';

export type ColumnType = 'String' | 'Number' | 'Boolean' | 'Date' | 'Object' | 'Array' | 'Pointer' | 'Relation';

/** A column's type, fixed by the first value written to it; pointers and relations also fix their target table. */
export interface Column {
  type: ColumnType;
  targetClass?: string;
}

/**
 * A stored row exactly as the API returns it (dates, pointers and relation markers in their JSON form). Never changed
 * in place once stored: a write stores a new row (`rows.ts`), so named snapshots share the rows neither changed.
 */
export type Row = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string; ACL?: Acl };

/** owner row id -> relation column -> ids of the related rows (in the column's target table). */
export type Relations = Map<string, Map<string, Set<string>>>;

export interface Table {
  columns: Map<string, Column>;
  /** Rows by `_id`, in creation order (the order of a query without `order`). */
  rows: Map<string, Row>;
  relations: Relations;
}

export interface DatabaseState {
  tables: Map<string, Table>;
}

/**
 * What is told of each write to a table's rows: before it, the row as it was (undefined: a new row) and the columns
 * the write may change (undefined: every one, a deletion); what it returns is called with the row written (undefined:
 * deleted). Set by `tables/value-counts.ts` when the admin's first table description loads it (the management
 * panel's, never an app's page): until then no table has counts to keep, and a write pays nothing for them.
 */
export const rowWrites: {
  watch?: (table: Table, row: Row | undefined, columns?: readonly string[]) => ((written?: Row) => void) | undefined;
} = {};

export const newTable = (): Table => ({ columns: new Map(), rows: new Map(), relations: new Map() });

interface TableJson {
  columns: Record<string, Column>;
  rows: Row[];
  relations: Record<string, Record<string, string[]>>;
}

const tableToJson = (table: Table): TableJson => ({
  columns: Object.fromEntries(table.columns),
  rows: [...table.rows.values()],
  relations: Object.fromEntries(
    [...table.relations].map(([owner, byColumn]) => [
      owner,
      Object.fromEntries([...byColumn].map(([column, ids]) => [column, [...ids]])),
    ]),
  ),
});

const tableFromJson = (json: TableJson): Table => ({
  columns: new Map(Object.entries(json.columns)),
  rows: new Map(json.rows.map((row) => [row._id, row])),
  relations: new Map(
    Object.entries(json.relations).map(([owner, byColumn]) => [
      owner,
      new Map(Object.entries(byColumn).map(([column, ids]) => [column, new Set(ids)])),
    ]),
  ),
});

/**
 * Tables a named snapshot holds. They are never written again: the live state shares them until its first write to
 * one, which writes to a copy of it instead (`writableTable` in `table-copy.ts`), so saving or restoring costs a map
 * of tables, and a table's rows are copied (as references) only when it is written to.
 */
const shared = new WeakSet<Table>();

/** Whether a named snapshot holds this table (so a write goes to a copy of it). */
export const heldBySnapshot = (table: Table): boolean => shared.has(table);

export const databaseState: StateSlice<DatabaseState> = {
  key: 'database',
  init: () => ({ tables: new Map() }),
  count: (state) => ({
    tables: state.tables.size,
    rows: [...state.tables.values()].reduce((sum, table) => sum + table.rows.size, 0),
  }),
  toJSON: (state) => Object.fromEntries([...state.tables].map(([name, table]) => [name, tableToJson(table)])),
  fromJSON: (json) => ({
    tables: new Map(
      Object.entries(json as Record<string, TableJson>).map(([name, table]) => [name, tableFromJson(table)]),
    ),
  }),
  copy(state) {
    for (const table of state.tables.values()) shared.add(table);
    return { tables: new Map(state.tables) };
  },
};
