import { ErrorCode, notFound } from '../../../shared/errors.js';
import type { Project } from '../../../shared/project.js';
import { findTable } from '../rows/rows.js';
import { databaseState, type Column, type ColumnType, type Table } from '../state.js';
import { valueCounts } from './value-counts.js';

/** One table as `GET /__admin/database/tables` lists it. */
export interface TableSummary {
  name: string;
  rowCount: number;
  /** The user-defined columns in the order they were first written (`_id`, `createdAt`, `updatedAt`, `ACL` are every row's). */
  columns: { name: string; type: ColumnType; targetClass?: string }[];
}

/** One table as `GET /__admin/database/tables/{table}` describes it: its summary with counts, and what points to it. */
export interface TableSchema extends TableSummary {
  columns: (TableSummary['columns'][number] & { rowsWithValue: number })[];
  /** The pointer and relation columns of every table (this one too) whose rows point into this table. */
  referencedBy: { table: string; column: string; type: 'Pointer' | 'Relation'; rowsWithValue: number }[];
}

const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

const columnJson = (name: string, { type, targetClass }: Column) => ({
  name,
  type,
  ...(targetClass !== undefined && { targetClass }),
});

/**
 * Every table of the project, by name: its row count and the type of each column (fixed by its first value;
 * pointers and relations name their target table). A table emptied by delete-all stays, with its column types.
 *
 * @example
 * describeTables(project); // [{ name: 'Note', rowCount: 2, columns: [{ name: 'author', type: 'Pointer', targetClass: 'Author' }] }]
 */
export function describeTables(project: Project): TableSummary[] {
  return [...project.state(databaseState).tables].sort(byName).map(([name, table]) => ({
    name,
    rowCount: table.rows.size,
    columns: [...table.columns].map(([column, type]) => columnJson(column, type)),
  }));
}

/** The table of that name; 404 code 50 when nothing was ever written to it (400 code 103 for a name not allowed). */
export function existingTable(project: Project, name: string): Table {
  const table = findTable(project, name);
  if (!table) throw notFound(ErrorCode.TABLE_NOT_FOUND, `no table "${name}"`);
  return table;
}

/**
 * One table with the number of rows holding a value in each column, and the pointer and relation columns (of every
 * table) that point into it: what renaming or dropping a column, or deleting the table, would touch. The counts are
 * kept as rows are written (`valueCounts`): a table's first description counts its rows, later ones do not.
 *
 * @example
 * describeTable(project, 'Author');
 * // { name: 'Author', rowCount: 2, columns: [{ name: 'name', type: 'String', rowsWithValue: 2 }],
 * //   referencedBy: [{ table: 'Note', column: 'author', type: 'Pointer', rowsWithValue: 5 }] }
 */
export function describeTable(project: Project, name: string): TableSchema {
  const table = existingTable(project, name);
  const referencedBy: TableSchema['referencedBy'] = [];
  for (const [other, owner] of [...project.state(databaseState).tables].sort(byName)) {
    for (const [column, type] of owner.columns) {
      if (type.targetClass !== name || (type.type !== 'Pointer' && type.type !== 'Relation')) continue;
      referencedBy.push({ table: other, column, type: type.type, rowsWithValue: valueCounts(owner).get(column) ?? 0 });
    }
  }
  const counts = valueCounts(table);
  return {
    name,
    rowCount: table.rows.size,
    columns: [...table.columns].map(([column, type]) => ({
      ...columnJson(column, type),
      rowsWithValue: counts.get(column) ?? 0,
    })),
    referencedBy,
  };
}
