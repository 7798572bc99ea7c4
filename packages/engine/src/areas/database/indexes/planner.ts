import { isPlainObject } from '../../../shared/http/body.js';
import { columnIndex, indexableType, lowerBound, upperBound, type ColumnIndex, type Scalar } from './indexes.js';
import type { Clause } from '../where/clause.js';
import type { Table } from '../state.js';
import { ValueSet } from '../values/value-set.js';

/** Positions [from, to) of an index. */
type Span = [number, number];

/**
 * What one column's index can do for a where: the spans of its entries that may match, in index order. Every row
 * that satisfies the where is in them (the where is still tested on each row); `size` is how many entries they hold.
 */
export interface IndexPlan {
  column: string;
  index: ColumnIndex;
  spans: Span[];
  size: number;
}

const RANGE = new Set(['$eq', '$gt', '$gte', '$lt', '$lte']);

/** The single `op: operand` of a top-level clause on a plain column, or undefined. */
function columnCondition(clause: Clause): { column: string; op: string; operand: unknown } | undefined {
  const [column, condition] = Object.entries(clause)[0]!;
  if (column.startsWith('$') || column.includes('.') || !isPlainObject(condition)) return undefined;
  const ops = Object.entries(condition);
  return ops.length === 1 ? { column, op: ops[0]![0], operand: ops[0]![1] } : undefined;
}

/** Narrows [from, to) by one comparison with a value of the column's type. */
function narrow(index: ColumnIndex, [from, to]: Span, op: string, value: Scalar): Span {
  if (op === '$eq') return [Math.max(from, lowerBound(index, value)), Math.min(to, upperBound(index, value))];
  if (op === '$gt') return [Math.max(from, upperBound(index, value)), to];
  if (op === '$gte') return [Math.max(from, lowerBound(index, value)), to];
  if (op === '$lt') return [from, Math.min(to, lowerBound(index, value))];
  return [from, Math.min(to, upperBound(index, value))];
}

/**
 * For each column of `table` that the top-level clauses compare with values of its own type (`$eq`, `$gt`, `$gte`,
 * `$lt`, `$lte`, `$in`), the part of its index that can match: exactly the clauses predicate.ts runs as plain
 * comparisons (a value of another type, null, `$ne`, regexes and the rest leave the column to the scan), and `$in`
 * lists of such values only (a null in the list also matches missing values, which no index holds).
 */
export function planIndexes(table: Table, clauses: Clause[]): Map<string, IndexPlan> {
  const bounds = new Map<string, { span?: Span; points?: Scalar[] }>();
  const plans = new Map<string, IndexPlan>();
  for (const clause of clauses) {
    const condition = columnCondition(clause);
    if (!condition) continue;
    const { column, op, operand } = condition;
    const type = indexableType(table, column);
    if (!type) continue;
    const isRange = RANGE.has(op) && typeof operand === type;
    const points = op === '$in' && operand instanceof ValueSet ? operand.primitives() : undefined;
    if (!isRange && !points?.every((value) => typeof value === type)) continue;
    const index = columnIndex(table, column)!;
    const bound = bounds.get(column) ?? {};
    bounds.set(column, bound);
    if (isRange) bound.span = narrow(index, bound.span ?? [0, index.values.length], op, operand as Scalar);
    else bound.points ??= (points as Scalar[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
  for (const [column, { span, points }] of bounds) {
    const index = columnIndex(table, column)!;
    const whole: Span = span ?? [0, index.values.length];
    const spans = (points ? points.map((value) => narrow(index, whole, '$eq', value)) : [whole]).filter(
      ([from, to]) => from < to,
    );
    plans.set(column, { column, index, spans, size: spans.reduce((sum, [from, to]) => sum + to - from, 0) });
  }
  return plans;
}

/**
 * The whole index of `column` as a plan, when every row of the table holds a value of the column's type: then walking
 * it visits every row in the column's order (rows without a value sort first, and there are none).
 */
export function wholeIndexPlan(table: Table, column: string): IndexPlan | undefined {
  const index = columnIndex(table, column);
  if (!index || index.values.length !== table.rows.size) return undefined;
  return { column, index, spans: index.values.length > 0 ? [[0, index.values.length]] : [], size: index.values.length };
}

/** The plan that leaves the fewest rows to visit, if any. */
export function narrowest(plans: Map<string, IndexPlan>): IndexPlan | undefined {
  let best: IndexPlan | undefined;
  for (const plan of plans.values()) if (!best || plan.size < best.size) best = plan;
  return best;
}
