import { Context } from 'mingo/core';
import { $eq, $gt, $gte, $lt, $lte, $ne } from 'mingo/operators/query/comparison';
import { $exists } from 'mingo/operators/query/element';
import type { $regex } from 'mingo/operators/query/evaluation';
import { Query } from 'mingo/query';
import { resolve } from 'mingo/util';
import { type Clause, SAFE_REGEX, type SafeRegexOperand } from './clause.js';
import type { Row } from '../state.js';
import type { ValueSet } from '../values/value-set.js';

type Operator = typeof $regex;

/** The value at a clause's path, as mingo's own operators see it (through arrays of objects). */
const selected = (row: Parameters<typeof resolve>[0], selector: string): unknown =>
  resolve(row, selector, { unwrapArray: true });

/** mingo's `$in`, over a `ValueSet` built once per query instead of a list hashed again for every row. */
function isIn(value: unknown, set: ValueSet): boolean {
  if (value === undefined || value === null) return set.has(null);
  return (Array.isArray(value) ? value : [value]).some((item) => set.has(item));
}

const $in: Operator = (selector, set) => (row) => isIn(selected(row, selector), set as ValueSet);
const $nin: Operator = (selector, set) => (row) => !isIn(selected(row, selector), set as ValueSet);

/** mingo's `$all` over a `ValueSet`: an array holding every value of the set (none when the set is empty). */
const $all: Operator = (selector, value) => {
  const set = value as ValueSet;
  return (row) => {
    const stored = selected(row, selector);
    if (!Array.isArray(stored) || stored.length === 0 || set.size === 0) return false;
    const found = new Set<number>();
    for (const item of stored) {
      const index = set.indexOf(item);
      if (index !== undefined) found.add(index);
    }
    return found.size === set.size;
  };
};

/** `$regex` through the query's `RegexOperand` (regex.ts: re2js, paid for by the query's budget). */
const $safeRegex: Operator = (selector, value) => {
  const re = value as SafeRegexOperand;
  return (row) => {
    const stored = selected(row, selector);
    return (Array.isArray(stored) ? stored : [stored]).some((item) => typeof item === 'string' && re.test(item));
  };
};

// Only the operators the API offers, for single clauses (predicate.ts combines $and, $or and $nor itself): anything
// else never reaches mingo (the resolver refuses it with 102).
const context = Context.init({
  query: { $eq, $ne, $lt, $lte, $gt, $gte, $in, $nin, $exists, $all, [SAFE_REGEX]: $safeRegex },
});

/** A row predicate for one resolved clause, through mingo (loaded on demand: see evaluators.ts). */
export function compileGeneral(criteria: Clause): (row: Row) => boolean {
  const query = new Query(criteria, { context });
  return (row) => query.test(row);
}
