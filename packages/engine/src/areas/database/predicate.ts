import { isPlainObject } from '../../shared/http.js';
import { generalEvaluator } from './evaluators.js';
import { SYSTEM_COLUMNS } from './names.js';
import type { Row, Table } from './state.js';

/** One condition in mingo's query language; a where resolves to a list of them, all of which must hold. */
export type Clause = Record<string, unknown>;

/** Clauses as one mingo criteria object. */
export const toCriteria = (clauses: Clause[]): Clause => (clauses.length === 1 ? clauses[0]! : clauses.length ? { $and: clauses } : {});

/** The name of the custom mingo operator that matches with re2js (linear time) instead of JavaScript's RegExp. */
export const SAFE_REGEX = '$safeRegex';

type Compare = (stored: unknown, operand: unknown) => boolean;

// Comparisons that, for a column of one scalar type and an operand of that type, mean exactly what mingo would compute.
const SIMPLE: Record<string, Compare> = {
  $eq: (a, b) => a === b,
  $ne: (a, b) => a !== b,
  $lt: (a, b) => typeof a === typeof b && (a as number) < (b as number),
  $lte: (a, b) => typeof a === typeof b && (a as number) <= (b as number),
  $gt: (a, b) => typeof a === typeof b && (a as number) > (b as number),
  $gte: (a, b) => typeof a === typeof b && (a as number) >= (b as number),
};

const SCALAR_COLUMN: Record<string, string> = { Number: 'number', String: 'string', Boolean: 'boolean' };

/** The scalar type of a top-level column, if it has one (system columns are strings). */
function scalarTypeOf(table: Table | undefined, path: string): string | undefined {
  if ((SYSTEM_COLUMNS as readonly string[]).includes(path)) return 'string';
  const column = table?.columns.get(path);
  return column && SCALAR_COLUMN[column.type];
}

/** A plain-JavaScript predicate for `column op scalar` clauses, or undefined when a clause needs mingo. */
function simplePredicate(table: Table | undefined, clauses: Clause[]): ((row: Row) => boolean) | undefined {
  const tests: ((row: Row) => boolean)[] = [];
  for (const clause of clauses) {
    const fields = Object.entries(clause);
    if (fields.length !== 1) return undefined;
    const [column, condition] = fields[0]!;
    if (column.startsWith('$') || column.includes('.') || !isPlainObject(condition)) return undefined;
    const ops = Object.entries(condition);
    if (ops.length !== 1) return undefined;
    const [op, operand] = ops[0]!;
    const compare = SIMPLE[op];
    if (!compare || typeof operand !== scalarTypeOf(table, column)) return undefined;
    tests.push((row) => compare(row[column], operand));
  }
  return tests.length === 1 ? tests[0] : (row) => tests.every((test) => test(row));
}

/**
 * Compiles resolved clauses into a row predicate: plain comparisons on scalar columns run as plain JavaScript
 * (the hot path of large queries); everything else runs through mingo, the general evaluator.
 */
export function compilePredicate(table: Table | undefined, clauses: Clause[]): (row: Row) => boolean {
  return simplePredicate(table, clauses) ?? generalEvaluator()(toCriteria(clauses));
}
