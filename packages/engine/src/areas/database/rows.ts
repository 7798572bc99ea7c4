import type { Config } from '../../config.js';
import type { Principal } from '../../shared/env.js';
import { ApiError, ErrorCode, badRequest, forbidden, notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Project } from '../../shared/project.js';
import { canRead, canWrite, parseAcl } from './acl.js';
import { applyChange, columnOfChange, parseChange, type Change } from './operators.js';
import { changeIndexedRow, dropIndexes, indexNewRow, unindexRow } from './indexes.js';
import { SYSTEM_COLUMNS, checkColumnName, checkTableName } from './names.js';
import { jsonBytes } from '../../shared/http.js';
import { rememberRowBytes } from './row-size.js';
import { showRelations } from './relations.js';
import { databaseState, newTable, type Column, type Row, type Table } from './state.js';
import { describeColumn } from './values.js';

/** The table of that name, or undefined when nothing was ever written to it (the name is checked first). */
export function findTable(project: Project, name: string): Table | undefined {
  return project.state(databaseState).tables.get(checkTableName(name));
}

function sameColumn(a: Column, b: Column): boolean {
  return a.type === b.type && a.targetClass === b.targetClass;
}

/**
 * Validates a whole create or update body against the table's column types before anything changes:
 * names, values, operators, the ACL, and that each value fits its column's type (fixed by its first value; 111).
 * Returns the changes and the columns the body introduces.
 */
function planChanges(
  table: Table,
  body: Record<string, unknown>,
): { changes: [string, Change][]; newColumns: [string, Column][] } {
  const changes: [string, Change][] = [];
  const newColumns: [string, Column][] = [];
  for (const [name, raw] of Object.entries(body)) {
    if ((SYSTEM_COLUMNS as readonly string[]).includes(name))
      throw badRequest(ErrorCode.INVALID_KEY_NAME, `"${name}" is set by the server and cannot be written`);
    if (name === 'ACL') {
      const change = parseChange(raw);
      if (change.op === 'Set') changes.push([name, { op: 'Set', value: parseAcl(raw) }]);
      else if (change.op === 'Delete') changes.push([name, change]);
      else throw badRequest(ErrorCode.INCORRECT_TYPE, 'ACL takes an ACL object or the Delete operator');
      continue;
    }
    checkColumnName(name);
    const change = parseChange(raw);
    const column = columnOfChange(change);
    const existing = table.columns.get(name);
    if (column && existing && !sameColumn(column, existing)) {
      throw badRequest(
        ErrorCode.INCORRECT_TYPE,
        `column "${name}" holds ${describeColumn(existing)}, not ${describeColumn(column)}`,
      );
    }
    if (column && !existing) newColumns.push([name, column]);
    changes.push([name, change]);
  }
  return { changes, newColumns };
}

/**
 * Applies a plan, all or nothing: first to a copy of the row, to check the table's column count (`maxTableColumns`,
 * 400 code 152) and the row's size once written (`maxRowBytes`, 413 code 151); then, if both fit, to the row.
 */
function commit(config: Config, table: Table, row: Row, plan: ReturnType<typeof planChanges>): void {
  const columns = table.columns.size + plan.newColumns.length;
  if (columns > config.maxTableColumns) {
    throw badRequest(
      ErrorCode.TOO_MANY_COLUMNS,
      `a table may have at most ${config.maxTableColumns} columns (maxTableColumns); this write would make ${columns}`,
    );
  }
  const candidate: Row = { ...row };
  for (const [name, change] of plan.changes) applyChange(candidate, new Map(), name, change);
  const size = jsonBytes(candidate);
  if (size > config.maxRowBytes) {
    throw new ApiError(
      413,
      ErrorCode.ROW_TOO_LARGE,
      `a row may be at most ${config.maxRowBytes} bytes as JSON (maxRowBytes); this write would make it ${size}`,
    );
  }
  for (const [name, column] of plan.newColumns) table.columns.set(name, column);
  changeIndexedRow(table, row, () => {
    for (const [name, change] of plan.changes) applyChange(row, table.relations, name, change);
  });
  rememberRowBytes(row, size);
}

function existingRow(project: Project, tableName: string, id: string): { table: Table; row: Row } {
  const table = findTable(project, tableName);
  const row = table?.rows.get(id);
  if (!table || !row) throw notFound(ErrorCode.OBJECT_NOT_FOUND, `no row "${id}" in table "${tableName}"`);
  return { table, row };
}

/**
 * Creates a row (spec 4.2 #1). The table is created by its first row. Operators are allowed and apply to an empty row.
 *
 * @example
 * createRow(project, 'Score', { player: 'ann', score: 10 }); // { createdAt: '2024-…Z', _id: 'a1B2c3D4e5' }
 */
export function createRow(
  project: Project,
  tableName: string,
  body: Record<string, unknown>,
): { createdAt: string; _id: string } {
  const tables = project.state(databaseState).tables;
  const table = tables.get(checkTableName(tableName)) ?? newTable();
  const plan = planChanges(table, body);
  let id = newId();
  while (table.rows.has(id)) id = newId();
  const now = project.clock.iso();
  const row: Row = { _id: id, createdAt: now, updatedAt: now };
  commit(project.config, table, row, plan);
  tables.set(tableName, table);
  table.rows.set(id, row);
  indexNewRow(table, row);
  return { createdAt: now, _id: id };
}

/** Changes the given columns of a row (spec 4.2 #2); the caller needs write access. */
export function updateRow(
  project: Project,
  principal: Principal,
  tableName: string,
  id: string,
  body: Record<string, unknown>,
): { updatedAt: string } {
  const { table, row } = existingRow(project, tableName, id);
  if (!canWrite(row, principal)) throw forbidden(`the ACL of row "${id}" does not let you change it`);
  const plan = planChanges(table, body);
  commit(project.config, table, row, plan);
  row.updatedAt = project.clock.iso();
  return { updatedAt: row.updatedAt };
}

/** A row (spec 4.2 #3), its relation columns as arrays of pointers (`showRelations`); the caller needs read access. */
export function getRow(project: Project, principal: Principal, tableName: string, id: string): Row {
  const { table, row } = existingRow(project, tableName, id);
  if (!canRead(row, principal)) throw forbidden(`the ACL of row "${id}" does not let you read it`);
  return showRelations(table, row);
}

/** Deletes a row and its relations (spec 4.2 #4); the caller needs write access. */
export function deleteRow(
  project: Project,
  principal: Principal,
  tableName: string,
  id: string,
): Record<string, never> {
  const { table, row } = existingRow(project, tableName, id);
  if (!canWrite(row, principal)) throw forbidden(`the ACL of row "${id}" does not let you delete it`);
  table.rows.delete(id);
  table.relations.delete(id);
  unindexRow(table, row);
  return {};
}

/** Deletes every row of a table, keeping its column types (spec 4.2 #5); master token only. */
export function deleteAllRows(project: Project, principal: Principal, tableName: string): { deletedCount: number } {
  if (!principal.isMaster) throw forbidden('deleting all rows of a table requires the master token');
  const table = findTable(project, tableName);
  const deletedCount = table?.rows.size ?? 0;
  table?.rows.clear();
  table?.relations.clear();
  if (table) dropIndexes(table);
  return { deletedCount };
}
