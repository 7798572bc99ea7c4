import { isPlainObject } from '../../../shared/http/body.js';
import { COST, type QueryBudget } from '../query/budget.js';
import type { Clause } from './clause.js';
import { generalEvaluator } from './evaluators.js';
import { SYSTEM_COLUMNS } from '../values/names.js';
import type { Row, Table } from '../state.js';
import { ownValue } from '../values/values.js';

type Compare = (stored: unknown, operand: unknown) => boolean;
type Test = (row: Row) => boolean;

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

/** A plain-JavaScript test for a `column op scalar` clause, or undefined when the clause needs mingo. */
function simpleTest(table: Table | undefined, column: string, condition: unknown): Test | undefined {
  if (column.startsWith('$') || column.includes('.') || !isPlainObject(condition)) return undefined;
  const ops = Object.entries(condition);
  if (ops.length !== 1) return undefined;
  const [op, operand] = ops[0]!;
  const compare = SIMPLE[op];
  if (!compare || typeof operand !== scalarTypeOf(table, column)) return undefined;
  // Own properties matter only for the names Object.prototype has; a reader function here halved the speed.
  if (column in Object.prototype) return (row) => compare(ownValue(row, column), operand);
  return (row) => compare(row[column], operand);
}

/** A compiled where: the row test, and what testing one row costs at most (every clause of every branch). */
interface Predicate {
  test: Test;
  cost: number;
}

// A Map, not an object literal: a clause's key is a column name, and `toString` must not find Object.prototype's.
const LOGICAL = new Map<string, (tests: Test[]) => Test>([
  ['$and', (tests) => (row) => tests.every((test) => test(row))],
  ['$or', (tests) => (row) => tests.some((test) => test(row))],
  ['$nor', (tests) => (row) => !tests.some((test) => test(row))],
]);

function compileClause(table: Table | undefined, clause: Clause, budget: QueryBudget): Predicate {
  const [key, value] = Object.entries(clause)[0]!;
  const combine = LOGICAL.get(key);
  if (combine) {
    const branches = (value as Clause[][]).map((branch) => compilePredicate(table, branch, budget));
    return {
      test: combine(branches.map((branch) => branch.test)),
      cost: branches.reduce((sum, branch) => sum + branch.cost, 0),
    };
  }
  const simple = simpleTest(table, key, value);
  budget.charge(simple ? COST.compileClause : COST.compileGeneralClause);
  return simple ? { test: simple, cost: COST.clause } : { test: generalEvaluator()(clause), cost: COST.generalClause };
}

/**
 * Compiles resolved clauses into a row predicate, one clause at a time: plain comparisons on scalar columns run as
 * plain JavaScript (the hot path of large queries), other clauses through mingo, the general evaluator, and `$and`,
 * `$or`, `$nor` combine their branches here, so that nothing is compiled (or copied by mingo) more than once.
 */
export function compilePredicate(table: Table | undefined, clauses: Clause[], budget: QueryBudget): Predicate {
  const parts = clauses.map((clause) => compileClause(table, clause, budget));
  const cost = parts.reduce((sum, part) => sum + part.cost, 0);
  if (parts.length === 1) return parts[0]!;
  const tests = parts.map((part) => part.test);
  return { test: (row) => tests.every((test) => test(row)), cost };
}
