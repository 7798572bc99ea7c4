// The resolved form of a where, as where.ts writes it and both evaluators read it: predicate.ts (plain comparisons)
// and general-predicate.ts (mingo, loaded on demand). Apart from both, so that the lazily loaded one needs nothing
// from the rest of the query code.

/**
 * One condition with one key, all of which in a list must hold: `{path: {op: operand}}` in mingo's query language,
 * or `{$and | $or | $nor: [[...clauses], ...]}` whose branches are lists of clauses again.
 */
export type Clause = Record<string, unknown>;

/** The name of the custom mingo operator that matches with re2js (linear time) instead of JavaScript's RegExp. */
export const SAFE_REGEX = '$safeRegex';

/** The operand of a `SAFE_REGEX` condition: a compiled pattern that pays for each text it tests (regex.ts). */
export interface SafeRegexOperand {
  test(text: string): boolean;
}
