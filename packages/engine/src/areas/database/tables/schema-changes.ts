import type { Config } from '../../../config.js';
import { ApiError, ErrorCode, badRequest, notFound } from '../../../shared/errors.js';
import type { Project } from '../../../shared/project.js';
import { dropIndexes } from '../indexes/indexes.js';
import { SYSTEM_COLUMNS, checkColumnName } from '../values/names.js';
import { rowBytes } from '../rows/row-size.js';
import { databaseState, type Column, type Row, type Table } from '../state.js';
import { writableTable } from './table-copy.js';
import { existingTable } from './tables.js';
import { moveValueCount } from './value-counts.js';

/** A user-defined column of the table; 404 code 51 otherwise, 400 code 105 for `_id`, `createdAt`, `updatedAt`, `ACL`. */
function existingColumn(table: Table, tableName: string, name: string): Column {
  if ([...SYSTEM_COLUMNS, 'ACL'].includes(name))
    throw badRequest(ErrorCode.INVALID_KEY_NAME, `"${name}" is every row's and cannot be renamed or dropped`);
  const column = table.columns.get(name);
  if (!column) throw notFound(ErrorCode.COLUMN_NOT_FOUND, `table "${tableName}" has no column "${name}"`);
  return column;
}

/** The table to change: its own copy when a named snapshot shares it (the table exists: checked before). */
const ownTable = (project: Project, tableName: string): Table =>
  writableTable(project.state(databaseState), tableName)!;

/**
 * Puts a rewritten copy in place of each row holding `column`: a stored row is never changed in place, since a named
 * snapshot may share it (`state.ts`).
 */
function rewriteRows(table: Table, column: string, rewrite: (row: Row) => Row): void {
  for (const [id, row] of table.rows) {
    if (!Object.hasOwn(row, column)) continue;
    table.rows.set(id, rewrite(row));
  }
}

/** The byte length of a column name as JSON, for the size of a row once the name changes. */
const nameBytes = (name: string) => new TextEncoder().encode(JSON.stringify(name)).length;

/** 413 code 151 when a row holding the column would pass `maxRowBytes` once its name is `to`; nothing changed. */
function checkRenamedSizes(config: Config, table: Table, from: string, to: string): void {
  const growth = nameBytes(to) - nameBytes(from);
  if (growth <= 0) return;
  for (const row of table.rows.values()) {
    if (!Object.hasOwn(row, from)) continue;
    const size = rowBytes(row) + growth;
    if (size > config.maxRowBytes)
      throw new ApiError(
        413,
        ErrorCode.ROW_TOO_LARGE,
        `row "${row._id}" would be ${size} bytes as JSON with the column named "${to}" (maxRowBytes ${config.maxRowBytes})`,
      );
  }
}

/**
 * Renames a user-defined column of a table: its type and place among the columns, its value in every row, its
 * relations. Rows keep their `updatedAt` (the schema changed, not the rows). 404 code 50/51 for an unknown table or
 * column, 400 code 105 for a name not allowed, 409 code 52 for a name the table already has.
 *
 * @example
 * renameColumn(project, 'Note', 'views', 'hits');
 */
export function renameColumn(project: Project, tableName: string, from: string, to: string): void {
  const table = existingTable(project, tableName);
  existingColumn(table, tableName, from);
  checkColumnName(to);
  if (to === 'ACL')
    throw badRequest(ErrorCode.INVALID_KEY_NAME, '"ACL" is every row\'s access list, not a column name');
  if (table.columns.has(to))
    throw new ApiError(409, ErrorCode.COLUMN_EXISTS, `table "${tableName}" already has a column "${to}"`);
  checkRenamedSizes(project.config, table, from, to);
  const own = ownTable(project, tableName);
  own.columns = new Map([...own.columns].map(([name, column]) => [name === from ? to : name, column]));
  rewriteRows(own, from, ({ [from]: value, ...rest }) => ({ ...rest, [to]: value }) as Row);
  for (const byColumn of own.relations.values()) {
    const members = byColumn.get(from);
    if (!members) continue;
    byColumn.delete(from);
    byColumn.set(to, members);
  }
  // Indexes are by column name: built again under the new one on first use.
  dropIndexes(own);
  moveValueCount(own, from, to);
}

/**
 * Drops a user-defined column of a table: its value in every row, its relations and its type (a later write may
 * give the name another type). Rows keep their `updatedAt`. 404 code 50/51 for an unknown table or column.
 *
 * @example
 * dropColumn(project, 'Note', 'views');
 */
export function dropColumn(project: Project, tableName: string, name: string): void {
  existingColumn(existingTable(project, tableName), tableName, name);
  const own = ownTable(project, tableName);
  own.columns.delete(name);
  rewriteRows(own, name, ({ [name]: _dropped, ...rest }) => rest as Row);
  for (const byColumn of own.relations.values()) byColumn.delete(name);
  dropIndexes(own);
  moveValueCount(own, name);
}

/**
 * Deletes a table with its rows, columns and relations, as if nothing had ever been written to it; pointers and
 * relations of other tables that point into it stay as they are (their rows no longer exist). 404 code 50 when there
 * is no such table.
 *
 * @example
 * deleteTable(project, 'Note'); // { deletedCount: 5000 }
 */
export function deleteTable(project: Project, tableName: string): { deletedCount: number } {
  const table = existingTable(project, tableName);
  project.state(databaseState).tables.delete(tableName);
  dropIndexes(table);
  return { deletedCount: table.rows.size };
}
