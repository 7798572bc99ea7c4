import { Context } from 'mingo/core';
import { $all } from 'mingo/operators/query/array';
import { $eq, $gt, $gte, $in, $lt, $lte, $ne, $nin } from 'mingo/operators/query/comparison';
import { $exists } from 'mingo/operators/query/element';
import { $and, $nor, $or } from 'mingo/operators/query/logical';
import type { $regex } from 'mingo/operators/query/evaluation';
import { Query } from 'mingo/query';
import { resolve } from 'mingo/util';
import { safeRegex } from './evaluators.js';
import { SAFE_REGEX, type Clause } from './predicate.js';
import type { Row } from './state.js';

/** `$regex` through re2js: linear in the length of the input whatever the pattern, so no pattern can stall the server. */
const $safeRegex: typeof $regex = (selector, value) => {
  const { pattern, flags } = value as { pattern: string; flags: number };
  const re = safeRegex().compile(pattern, flags);
  return (row) => {
    const value = resolve(row, selector, { unwrapArray: true });
    return (Array.isArray(value) ? value : [value]).some((item) => typeof item === 'string' && re.test(item));
  };
};

// Only the operators the API offers: anything else never reaches mingo (the resolver refuses it with 102).
const context = Context.init({ query: { $eq, $ne, $lt, $lte, $gt, $gte, $in, $nin, $exists, $all, $and, $or, $nor, [SAFE_REGEX]: $safeRegex } });

/** A row predicate for any resolved criteria, through mingo (loaded on demand: see evaluators.ts). */
export function compileGeneral(criteria: Clause): (row: Row) => boolean {
  const query = new Query(criteria, { context });
  return (row) => query.test(row);
}
