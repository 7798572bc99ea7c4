import type { Pointer } from './types.js';

/**
 * A pointer to a row, for pointer columns, relation operators and `relatedTo`.
 *
 * @example
 * await notes.create({ title: 'Hi', author: pointer('Author', authorId) });
 */
export function pointer<Table extends string>(table: Table, id: string): Pointer<Table> {
  return { __type: 'Pointer', className: table, _id: id };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A value as the service stores it: every `Date` becomes `{"__type": "Date", "iso"}` (the contract's `DatabaseRow`). */
export function encode(value: unknown): unknown {
  if (value instanceof Date) return { __type: 'Date', iso: value.toISOString() };
  if (Array.isArray(value)) return value.map(encode);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, encode(item)]));
}

// The service writes `Z`, and also shows a literal `UTC` suffix (the contract's `DatabaseRow`).
const parseTimestamp = (text: string) => new Date(text.replace(/UTC$/, 'Z'));

/**
 * A value as the service sent it, with dates as `Date`: `{"__type": "Date"}` values anywhere, and `createdAt` and
 * `updatedAt` of the row and of any row embedded by `include`.
 */
export function decode(value: unknown, isRow = false): unknown {
  if (Array.isArray(value)) return value.map((item) => decode(item));
  if (!isObject(value)) return value;
  if (value['__type'] === 'Date' && typeof value['iso'] === 'string') return parseTimestamp(value['iso']);
  const row = isRow || value['__type'] === 'Object';
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      row && (key === 'createdAt' || key === 'updatedAt') && typeof item === 'string'
        ? parseTimestamp(item)
        : decode(item),
    ]),
  );
}
