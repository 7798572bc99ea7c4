import { ErrorCode, badRequest } from '../../../shared/errors.js';
import { isPlainObject } from '../../../shared/http/body.js';
import { columnOf, normalizeValue, ownValue, parsePointer, type Pointer } from '../values/values.js';
import type { Column, Relations, Row } from '../state.js';
import { ValueSet } from '../values/value-set.js';

/** What one column of a create or update body asks for (docs/database.md#update-operators). */
export type Change =
  | { op: 'Set'; value: unknown }
  | { op: 'Delete' }
  | { op: 'Increment'; amount: number }
  | { op: 'Add' | 'AddUnique' | 'Remove'; objects: unknown[] }
  | { op: 'AddRelation' | 'RemoveRelation'; pointers: Pointer[] };

const OPERATORS = ['Increment', 'Add', 'AddUnique', 'Remove', 'Delete', 'AddRelation', 'RemoveRelation'];

function objectsOf(raw: Record<string, unknown>, op: string): unknown[] {
  const objects = raw['objects'];
  if (!Array.isArray(objects)) throw badRequest(ErrorCode.INCORRECT_TYPE, `${op} takes an "objects" array`);
  return objects;
}

/** Reads one column value of a request body: a plain value or an `{"__op": ...}` operator; 400 when malformed. */
export function parseChange(raw: unknown): Change {
  if (!isPlainObject(raw) || !('__op' in raw)) return { op: 'Set', value: normalizeValue(raw) };
  const op = raw['__op'];
  if (typeof op !== 'string' || !OPERATORS.includes(op)) {
    throw badRequest(ErrorCode.INVALID_JSON, `unknown operator ${JSON.stringify(op)}; one of ${OPERATORS.join(', ')}`);
  }
  switch (op) {
    case 'Delete':
      return { op };
    case 'Increment': {
      const amount = raw['amount'];
      if (typeof amount !== 'number') throw badRequest(ErrorCode.INCORRECT_TYPE, 'Increment takes a numeric "amount"');
      return { op, amount };
    }
    case 'AddRelation':
    case 'RemoveRelation': {
      const pointers = objectsOf(raw, op).map(parsePointer);
      const target = pointers[0]?.className;
      if (!target || pointers.some((p) => p.className !== target)) {
        throw badRequest(
          ErrorCode.INCORRECT_TYPE,
          `${op} takes a non-empty "objects" array of pointers into one table`,
        );
      }
      return { op, pointers };
    }
    default:
      return {
        op: op as 'Add' | 'AddUnique' | 'Remove',
        objects: objectsOf(raw, op).map((item) => normalizeValue(item, 1)),
      };
  }
}

/** The column type a change gives its column; undefined when it fixes none (Delete, null). */
export function columnOfChange(change: Change): Column | undefined {
  switch (change.op) {
    case 'Set':
      return columnOf(change.value);
    case 'Delete':
      return undefined;
    case 'Increment':
      return { type: 'Number' };
    case 'AddRelation':
    case 'RemoveRelation':
      return { type: 'Relation', targetClass: change.pointers[0]!.className };
    default:
      return { type: 'Array' };
  }
}

const arrayValue = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Applies a validated change to a row (and the table's relations). Synchronous, so that no other request can
 * run between reading the old value and writing the new one: every operator is atomic. Linear in the sizes of the
 * column and the change (`AddUnique` and `Remove` look values up in a `ValueSet`).
 */
export function applyChange(row: Row, relations: Relations, column: string, change: Change): void {
  const current = ownValue(row, column);
  switch (change.op) {
    case 'Set':
      row[column] = change.value;
      return;
    case 'Delete':
      delete row[column];
      relations.get(row._id)?.delete(column);
      return;
    case 'Increment':
      // A missing (or null) column counts from 0, as in Parse.
      row[column] = ((current as number | null | undefined) ?? 0) + change.amount;
      return;
    case 'Add':
      row[column] = [...arrayValue(current), ...change.objects];
      return;
    case 'AddUnique': {
      const next = [...arrayValue(current)];
      const present = new ValueSet(next);
      for (const item of change.objects) {
        if (!present.has(item)) next.push(item);
        present.add(item);
      }
      row[column] = next;
      return;
    }
    case 'Remove': {
      const removed = new ValueSet(change.objects);
      row[column] = arrayValue(current).filter((existing) => !removed.has(existing));
      return;
    }
    default: {
      row[column] = { __type: 'Relation', className: change.pointers[0]!.className };
      const byColumn = relations.get(row._id) ?? new Map<string, Set<string>>();
      relations.set(row._id, byColumn);
      const ids = byColumn.get(column) ?? new Set<string>();
      byColumn.set(column, ids);
      for (const pointer of change.pointers) {
        if (change.op === 'AddRelation') ids.add(pointer._id);
        else ids.delete(pointer._id);
      }
    }
  }
}
