import { ApiError, ErrorCode, badRequest } from '../../../shared/errors.js';
import { isPlainObject } from '../../../shared/http/body.js';
import { newId } from '../../../shared/ids.js';
import type { Moment } from '../../../shared/moment.js';
import type { Project } from '../../../shared/project.js';
import { checkColumnName, checkTableName } from '../values/names.js';
import { checkColumnCount, insertRow, planChanges, plannedRowBytes, type Plan } from './rows.js';
import { writableTable } from '../tables/table-copy.js';
import { databaseState, newTable, type Column, type ColumnType, type Row } from '../state.js';
import { describeColumn, normalizeIso } from '../values/values.js';

const COLUMN_TYPES: ColumnType[] = ['String', 'Number', 'Boolean', 'Date', 'Object', 'Array', 'Pointer', 'Relation'];
/** The ids an import may give its rows: those the server makes (10 letters and digits), UUIDs, and the like. */
const ROW_ID = /^[A-Za-z0-9_-]{1,64}$/;

const invalid = (message: string) => badRequest(ErrorCode.VALIDATION_FAILED, message);

/** The `columns` of an import body: `[{name, type, targetClass?}]` as the table list describes them; 400 otherwise. */
function parseColumns(raw: unknown): [string, Column][] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid('"columns" must be an array of {"name", "type", "targetClass"?}');
  return raw.map((item, i) => {
    if (!isPlainObject(item) || typeof item['name'] !== 'string' || !COLUMN_TYPES.includes(item['type'] as ColumnType))
      throw invalid(`columns[${i}] must be {"name", "type": one of ${COLUMN_TYPES.join(', ')}, "targetClass"?}`);
    const type = item['type'] as ColumnType;
    const linked = type === 'Pointer' || type === 'Relation';
    if (linked !== (typeof item['targetClass'] === 'string'))
      throw invalid(`columns[${i}]: a Pointer or Relation column names its "targetClass", another type none`);
    const column: Column = linked ? { type, targetClass: checkTableName(item['targetClass'] as string) } : { type };
    return [checkColumnName(item['name']), column];
  });
}

const sameColumn = (a: Column, b: Column) => a.type === b.type && a.targetClass === b.targetClass;

/** A timestamp given in a row (either ISO form), in canonical form; 400 code 111 when it is not one. */
function timestamp(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  const iso = normalizeIso(value);
  if (!iso) throw badRequest(ErrorCode.INCORRECT_TYPE, `"${name}" must be a timestamp, YYYY-MM-DDTHH:MM:SS.MMMZ`);
  return iso;
}

/**
 * The body that creates one imported row: its values as they are, except a relation column's array of pointers,
 * which becomes the `AddRelation` that gives the row those members. Operators are refused: an import holds values.
 */
function createBody(columns: ReadonlyMap<string, Column>, values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (isPlainObject(value) && '__op' in value)
      throw badRequest(ErrorCode.INCORRECT_TYPE, `column "${name}" holds an operator: an import holds values`);
    if (columns.get(name)?.type !== 'Relation') body[name] = value;
    else if (value === null || (Array.isArray(value) && value.length === 0)) continue;
    else if (Array.isArray(value)) body[name] = { __op: 'AddRelation', objects: value };
    else throw badRequest(ErrorCode.INCORRECT_TYPE, `column "${name}" is a relation: an array of pointers`);
  }
  return body;
}

/**
 * Imports rows into a table (created if need be) all at once or not at all: every row is checked first, as a create
 * would check it (names, values, the column types of the table, of `columns` and of the rows before it, the ACL,
 * `maxRowBytes`, `maxTableColumns`), then all are written. A row may keep its `_id` (unless taken), `createdAt` and
 * `updatedAt`; a relation column (of the table or `columns`) takes the array of pointers a query shows. A refused
 * row answers 400 code 53 naming its position (from 1) and why, and nothing is written.
 *
 * @example
 * importRows(project, moment, 'Note', { columns: [{ name: 'author', type: 'Pointer', targetClass: 'Author' }], rows: [{ title: 'a' }] });
 * // { imported: 1 }
 */
export function importRows(
  project: Project,
  moment: Moment,
  tableName: string,
  body: Record<string, unknown>,
): { imported: number } {
  const tables = project.state(databaseState).tables;
  const existing = tables.get(checkTableName(tableName));
  const columns = new Map(existing?.columns);
  for (const [name, column] of parseColumns(body['columns'])) {
    const known = columns.get(name);
    if (known && !sameColumn(known, column))
      throw badRequest(
        ErrorCode.INCORRECT_TYPE,
        `column "${name}" holds ${describeColumn(known)}, not ${describeColumn(column)}`,
      );
    columns.set(name, column);
  }
  checkColumnCount(project.config, columns.size);
  const rows = body['rows'];
  if (!Array.isArray(rows)) throw invalid('"rows" must be an array of rows');

  const ids = new Set<string>();
  const free = (id: string) => !existing?.rows.has(id) && !ids.has(id);
  const rowId = (given: unknown): string => {
    if (given === undefined) {
      let id = newId(moment);
      while (!free(id)) id = newId(moment);
      return id;
    }
    if (typeof given !== 'string' || !ROW_ID.test(given))
      throw badRequest(ErrorCode.INCORRECT_TYPE, '"_id" must be 1 to 64 letters, digits, "_" or "-"');
    if (!free(given)) throw badRequest(ErrorCode.DUPLICATE_VALUE, `"_id" "${given}" is taken by another row`);
    return given;
  };
  const now = moment.iso();
  const planned = rows.map((raw, index): { row: Row; plan: Plan; size: number } => {
    try {
      if (!isPlainObject(raw)) throw badRequest(ErrorCode.INVALID_JSON, 'a row is a JSON object');
      const { _id, createdAt, updatedAt, ...values } = raw;
      const id = rowId(_id);
      ids.add(id);
      const created = timestamp(createdAt, 'createdAt') ?? now;
      const row: Row = { _id: id, createdAt: created, updatedAt: timestamp(updatedAt, 'updatedAt') ?? created };
      const plan = planChanges(columns, createBody(columns, values));
      for (const [name, column] of plan.newColumns) columns.set(name, column);
      checkColumnCount(project.config, columns.size);
      return { row, plan, size: plannedRowBytes(project.config, row, plan) };
    } catch (error) {
      if (error instanceof ApiError)
        throw badRequest(ErrorCode.IMPORT_ROW_REFUSED, `row ${index + 1}: ${error.message} (code ${error.code})`);
      throw error;
    }
  });

  const table = (existing && writableTable(project.state(databaseState), tableName)) || newTable();
  table.columns = columns;
  tables.set(tableName, table);
  for (const { row, plan, size } of planned) insertRow(table, row, plan, size);
  return { imported: planned.length };
}
