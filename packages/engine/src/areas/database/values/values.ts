import { ErrorCode, badRequest } from '../../../shared/errors.js';
import { isPlainObject } from '../../../shared/http/body.js';
import { checkNestedKey, checkTableName } from './names.js';
import type { Column } from '../state.js';

interface DateValue {
  __type: 'Date';
  iso: string;
}

export interface Pointer {
  __type: 'Pointer';
  className: string;
  _id: string;
}

/** Nesting deeper than this is refused, so that no recursion over a value can exhaust the stack. */
export const MAX_DEPTH = 32;

// `Z` or the literal `UTC` suffix (the contract's `DatabaseRow`); seconds and milliseconds optional on input.
const ISO_INPUT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(?:Z|UTC)$/;

/** An ISO 8601 timestamp in either accepted form, as `YYYY-MM-DDTHH:MM:SS.MMMZ`; undefined when it is not one. */
export function normalizeIso(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const match = ISO_INPUT.exec(text);
  if (!match) return undefined;
  const date = new Date(`${match[1]}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export const isTyped = (value: unknown, type: string): value is Record<string, unknown> =>
  isPlainObject(value) && value['__type'] === type;

/** `{__type: "Date", iso}` with a valid timestamp, in canonical form; 400 code 111 otherwise. */
function parseDate(value: Record<string, unknown>): DateValue {
  const iso = normalizeIso(value['iso']);
  if (!iso || Object.keys(value).length !== 2)
    throw badRequest(ErrorCode.INCORRECT_TYPE, 'a Date is {"__type": "Date", "iso": "YYYY-MM-DDTHH:MM:SS.MMMZ"}');
  return { __type: 'Date', iso };
}

/** `{__type: "Pointer", className, _id}` with a valid table name and a non-empty id; 400 code 106 otherwise. */
export function parsePointer(value: unknown): Pointer {
  if (
    !isTyped(value, 'Pointer') ||
    Object.keys(value).length !== 3 ||
    typeof value['className'] !== 'string' ||
    typeof value['_id'] !== 'string' ||
    value['_id'] === ''
  ) {
    throw badRequest(
      ErrorCode.INVALID_POINTER,
      'a pointer is {"__type": "Pointer", "className": "<table>", "_id": "<row id>"}',
    );
  }
  return { __type: 'Pointer', className: checkTableName(value['className']), _id: value['_id'] };
}

/**
 * A column value checked and put in canonical form: dates normalised, pointers validated, keys of JSON objects
 * checked, any other `__type` refused. Throws a 400 for anything the database cannot store.
 */
export function normalizeValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH)
    throw badRequest(ErrorCode.INCORRECT_TYPE, `values may be nested at most ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.map((item) => normalizeValue(item, depth + 1));
  if (!isPlainObject(value)) return value;
  if ('__type' in value) {
    if (value['__type'] === 'Date') return parseDate(value);
    if (value['__type'] === 'Pointer') return parsePointer(value);
    throw badRequest(
      ErrorCode.INCORRECT_TYPE,
      `unsupported __type ${JSON.stringify(value['__type'])}: only Date and Pointer values can be written`,
    );
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    checkNestedKey(key);
    copy[key] = normalizeValue(item, depth + 1);
  }
  return copy;
}

/** The column type a (normalised) value gives its column; undefined for null, which fits every column. */
export function columnOf(value: unknown): Column | undefined {
  if (value === null) return undefined;
  if (typeof value === 'string') return { type: 'String' };
  if (typeof value === 'number') return { type: 'Number' };
  if (typeof value === 'boolean') return { type: 'Boolean' };
  if (Array.isArray(value)) return { type: 'Array' };
  if (isTyped(value, 'Date')) return { type: 'Date' };
  if (isTyped(value, 'Pointer')) return { type: 'Pointer', targetClass: value['className'] as string };
  return { type: 'Object' };
}

export const describeColumn = (column: Column): string =>
  column.targetClass ? `${column.type}<${column.targetClass}>` : column.type;

/**
 * The value of a client-named key of a row or JSON object: its own property only, so that `constructor`,
 * `toString` and the other names of `Object.prototype` read as missing instead of as the prototype's functions.
 */
export const ownValue = (record: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * A fast reader of one client-named column, for loops over many rows: the own-property check of `ownValue` only
 * where it matters, for the names Object.prototype has (it halved the speed of sorting).
 */
export function columnReader(column: string): (record: Record<string, unknown>) => unknown {
  return column in Object.prototype ? (record) => ownValue(record, column) : (record) => record[column];
}

/** The value at a dotted path (`a.b`) of a row or JSON object (own keys only); undefined when any step is missing. */
export function valueAt(row: Record<string, unknown>, path: string): unknown {
  if (!path.includes('.')) return ownValue(row, path);
  let value: unknown = row;
  for (const step of path.split('.')) value = isPlainObject(value) ? ownValue(value, step) : undefined;
  return value;
}
