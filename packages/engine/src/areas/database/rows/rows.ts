import type { Config } from '../../../config.js';
import type { Principal } from '../../../shared/env.js';
import { ApiError, ErrorCode, badRequest, forbidden, notFound } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { Moment } from '../../../shared/moment.js';
import type { Project } from '../../../shared/project.js';
import { aclRefusal, canRead, canWrite, parseAcl } from './acl.js';
import { applyChange, columnOfChange, parseChange, type Change } from './operators.js';
import { indexNewRow, replaceIndexedRow, unindexRow } from '../indexes/indexes.js';
import { SYSTEM_COLUMNS, checkColumnName, checkTableName } from '../values/names.js';
import { jsonBytes } from '../../../shared/http/body.js';
import { rememberRowBytes } from './row-size.js';
import { showRelations } from '../query/relations.js';
import { databaseState, newTable, rowWrites, type Column, type Row, type Table } from '../state.js';
import { writableTable } from '../tables/table-copy.js';
import { describeColumn } from '../values/values.js';

/** The table of that name, or undefined when nothing was ever written to it (the name is checked first). */
export function findTable(project: Project, name: string): Table | undefined {
  return project.state(databaseState).tables.get(checkTableName(name));
}

/** The table of that name to write to: its own copy first if a named snapshot shares it (see `writableTable`). */
const tableToWrite = (project: Project, name: string): Table | undefined =>
  writableTable(project.state(databaseState), checkTableName(name));

function sameColumn(a: Column, b: Column): boolean {
  return a.type === b.type && a.targetClass === b.targetClass;
}

/** A create or update body, validated: its changes and the columns it introduces. */
export interface Plan {
  changes: [string, Change][];
  newColumns: [string, Column][];
}

/** The columns a plan writes to. */
const columnsOf = (plan: Plan): string[] => plan.changes.map(([name]) => name);

/**
 * Validates a whole create or update body against a table's column types before anything changes:
 * names, values, operators, the ACL, and that each value fits its column's type (fixed by its first value; 111).
 */
export function planChanges(columns: ReadonlyMap<string, Column>, body: Record<string, unknown>): Plan {
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
    const existing = columns.get(name);
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

/** 400 code 152 when a table would have more than `maxTableColumns` columns. */
export function checkColumnCount(config: Config, columns: number): void {
  if (columns > config.maxTableColumns) {
    throw badRequest(
      ErrorCode.TOO_MANY_COLUMNS,
      `a table may have at most ${config.maxTableColumns} columns (maxTableColumns); this write would make ${columns}`,
    );
  }
}

/**
 * The size as JSON of `row` once `plan` is applied, measured on a copy (the row is left as it is); 413 code 151 when
 * it would pass `maxRowBytes`.
 */
export function plannedRowBytes(config: Config, row: Row, plan: Plan): number {
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
  return size;
}

/**
 * Applies a plan, all or nothing: first to a copy of the row, to check the table's column count (`maxTableColumns`,
 * 400 code 152) and the row's size once written (`maxRowBytes`, 413 code 151); then, if both fit, to a new row that
 * replaces it. A stored row is never changed in place: a named snapshot may share it (`state.ts`).
 */
function commit(config: Config, table: Table, row: Row, plan: Plan): Row {
  checkColumnCount(config, table.columns.size + plan.newColumns.length);
  const size = plannedRowBytes(config, row, plan);
  for (const [name, column] of plan.newColumns) table.columns.set(name, column);
  // Not `{ ...row }`: V8 gives a spread copy a hidden class outside its transition tree, so each column then added
  // made a hidden class of its own for every row written, and every read of a column over a table of such rows
  // missed its inline cache (a scan of 100,000 rows took about 60 ms instead of 4). Column names never start with
  // `_` (`names.ts`), so no key copied here is `__proto__`.
  const written: Row = Object.assign({}, row);
  for (const [name, change] of plan.changes) applyChange(written, table.relations, name, change);
  rememberRowBytes(written, size);
  return written;
}

/** Adds a new row to its table, with its planned values (checked before: `plannedRowBytes` measured `size`). */
export function insertRow(table: Table, row: Row, plan: Plan, size: number): void {
  const counted = rowWrites.watch?.(table, undefined, columnsOf(plan));
  for (const [name, change] of plan.changes) applyChange(row, table.relations, name, change);
  table.rows.set(row._id, row);
  counted?.(row);
  indexNewRow(table, row);
  rememberRowBytes(row, size);
}

function existingRow(project: Project, tableName: string, id: string): { table: Table; row: Row } {
  const table = findTable(project, tableName);
  const row = table?.rows.get(id);
  if (!table || !row) throw notFound(ErrorCode.OBJECT_NOT_FOUND, `no row "${id}" in table "${tableName}"`);
  return { table, row };
}

/**
 * Creates a row (the contract's `createRow`). The table is created by its first row. Operators are allowed and apply to an empty row.
 *
 * @example
 * createRow(project, moment, 'Score', { player: 'ann', score: 10 }); // { createdAt: '2024-…Z', _id: 'a1B2c3D4e5' }
 */
export function createRow(
  project: Project,
  moment: Moment,
  tableName: string,
  body: Record<string, unknown>,
): { createdAt: string; _id: string } {
  const table = tableToWrite(project, tableName) ?? newTable();
  const plan = planChanges(table.columns, body);
  let id = newId(moment);
  while (table.rows.has(id)) id = newId(moment);
  const now = moment.iso();
  const counted = rowWrites.watch?.(table, undefined, columnsOf(plan));
  const row = commit(project.config, table, { _id: id, createdAt: now, updatedAt: now }, plan);
  project.state(databaseState).tables.set(tableName, table);
  table.rows.set(id, row);
  counted?.(row);
  indexNewRow(table, row);
  return { createdAt: now, _id: id };
}

/** Changes the given columns of a row (the contract's `updateRow`); the caller needs write access. */
export function updateRow(
  project: Project,
  moment: Moment,
  principal: Principal,
  tableName: string,
  id: string,
  body: Record<string, unknown>,
): { updatedAt: string } {
  const { row } = existingRow(project, tableName, id);
  if (!canWrite(row, principal)) throw aclRefusal(id, principal, 'write', 'change');
  const table = tableToWrite(project, tableName)!;
  const plan = planChanges(table.columns, body);
  const counted = rowWrites.watch?.(table, row, columnsOf(plan));
  const written = commit(project.config, table, row, plan);
  written.updatedAt = moment.iso();
  table.rows.set(id, written);
  counted?.(written);
  replaceIndexedRow(table, row, written);
  return { updatedAt: written.updatedAt };
}

/** A row (the contract's `getRow`), its relation columns as arrays of pointers (`showRelations`); the caller needs read access. */
export function getRow(project: Project, principal: Principal, tableName: string, id: string): Row {
  const { table, row } = existingRow(project, tableName, id);
  if (!canRead(row, principal)) throw aclRefusal(id, principal, 'read', 'read');
  return showRelations(table, row);
}

/** Deletes a row and its relations (the contract's `deleteRow`); the caller needs write access. */
export function deleteRow(
  project: Project,
  principal: Principal,
  tableName: string,
  id: string,
): Record<string, never> {
  const { row } = existingRow(project, tableName, id);
  if (!canWrite(row, principal)) throw aclRefusal(id, principal, 'write', 'delete');
  const table = tableToWrite(project, tableName)!;
  const counted = rowWrites.watch?.(table, row);
  table.rows.delete(id);
  table.relations.delete(id);
  counted?.();
  unindexRow(table, row);
  return {};
}

/** Deletes every row of a table, keeping its column types (the contract's `deleteAllRows`); master token only. */
export function deleteAllRows(project: Project, principal: Principal, tableName: string): { deletedCount: number } {
  if (!principal.isMaster) throw forbidden('deleting all rows of a table requires the master token');
  const table = findTable(project, tableName);
  if (!table) return { deletedCount: 0 };
  // An empty table of the same columns takes its place (with no indexes): nothing to copy if a snapshot shares it.
  project.state(databaseState).tables.set(tableName, { ...newTable(), columns: new Map(table.columns) });
  return { deletedCount: table.rows.size };
}
