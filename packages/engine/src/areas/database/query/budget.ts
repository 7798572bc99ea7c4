import { ApiError, ErrorCode } from '../../../shared/errors.js';
import { rowBytes } from '../rows/row-size.js';
import type { Row } from '../state.js';

/**
 * What the parts of a query cost, in units of about one clause tested on one row. The weights and the default
 * `maxQueryCost` were measured on this project's machine kind (docs/reliability.md, "Limits"), so that a query
 * within the budget holds the event loop for about 100 ms at most.
 */
export const COST = {
  /** A row a scan visits (the read check and the visit), before its clauses. */
  row: 1,
  /** A row gathered from an index and put back in creation order (a sort of the rows gathered), before its visit. */
  gather: 2,
  /**
   * One clause tested on one row; a scan pays every clause of its where for every row (the worst case of `$or`).
   * A plain comparison on a scalar column costs `clause`, any other clause (through mingo) `generalClause`.
   */
  clause: 1,
  generalClause: 4,
  /** A value of an operand list or of a sub-query's result put into a `ValueSet`. */
  compile: 12,
  /** A clause compiled: a plain comparison, or through mingo (about 10 µs each), or a `$regex` (re2js, 20 µs and more). */
  compileClause: 16,
  compileGeneralClause: 160,
  compileRegex: 320,
  /** Characters of a sub-query's canonical key per unit (the key is built to find the sub-query already run). */
  keyChars: 64,
  /** One character of a `$regex` pattern, compiled (re2js compiles long patterns slowly). */
  regexPatternChar: 50,
  /** Characters of stored text per unit that a `$regex` tests (re2js is linear, at several ns a character). */
  regexTextChars: 8,
  /** One comparison of `order` (per key), in the heap of a small page or the sort of a large one. */
  comparison: 1,
  /** A row returned or included, and each KiB of its stored size (the answer is written from them). */
  output: 16,
  outputKiB: 64,
} as const;

const tooCostly = (limit: number) =>
  new ApiError(
    400,
    ErrorCode.QUERY_TOO_COSTLY,
    `the query would cost more than maxQueryCost (${limit} units): narrow the where, or use fewer sub-queries, clauses, included rows or a smaller limit`,
  );

/**
 * The work one query request may still do. Every part of the query charges what it is about to do (rows visited,
 * clauses compiled, sub-query results, comparisons, rows returned and included), so a query past its budget is
 * refused with 400 (code 150) before that part runs: it never holds the server for long, and changes nothing.
 */
export class QueryBudget {
  #spent = 0;

  constructor(readonly limit: number) {}

  /** Adds `units` to what the query has spent; 400 (code 150) when that passes the limit. */
  charge(units: number): void {
    this.#spent += units;
    if (this.#spent > this.limit) throw tooCostly(this.limit);
  }
}

/** What returning (or including) a stored row costs: the row, and each KiB of it, which the answer will hold. */
export const outputCost = (row: Row): number => COST.output + Math.ceil(rowBytes(row) / 1024) * COST.outputKiB;
