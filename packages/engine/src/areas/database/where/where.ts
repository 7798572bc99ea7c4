import type { Principal } from '../../../shared/env.js';
import { ErrorCode, badRequest } from '../../../shared/errors.js';
import { isPlainObject } from '../../../shared/http/body.js';
import type { Project } from '../../../shared/project.js';
import { canRead } from '../rows/acl.js';
import { COST, type QueryBudget } from '../query/budget.js';
import { canonicalJson } from '../values/canonical.js';
import { type Clause, SAFE_REGEX } from './clause.js';
import { checkPath, checkTableName } from '../values/names.js';
import { RegexOperand } from './regex.js';
import { databaseState, type Row } from '../state.js';
import { ValueSet } from '../values/value-set.js';
import { MAX_DEPTH, isTyped, normalizeIso, normalizeValue, parsePointer, valueAt } from '../values/values.js';

/** What one query request shares across its where and its sub-queries. */
export interface QueryRun {
  budget: QueryBudget;
  /** The values of each distinct sub-query, by its canonical key: each is evaluated once per request. */
  subQueries: Map<string, ValueSet>;
  /**
   * Every readable row of `ctx.tableName` that satisfies a where: how a sub-query runs. Given by query.ts, which
   * resolves its wheres through this module (a sub-query is a query inside a where).
   */
  matchingRows(ctx: WhereContext, where: unknown): Row[];
}

/** Who is asking and for which table: sub-queries and `$relatedTo` depend on both. */
export interface WhereContext {
  project: Project;
  principal: Principal;
  tableName: string;
  depth: number;
  run: QueryRun;
}

const invalid = (message: string) => badRequest(ErrorCode.INVALID_QUERY, message);

const TIMESTAMP_COLUMNS = new Set(['createdAt', 'updatedAt']);
const RANGE_OPS = new Set(['$lt', '$lte', '$gt', '$gte']);
const LOGICAL_OPS = new Set(['$or', '$and', '$nor']);

/** A query operand in stored form. `createdAt`/`updatedAt` are stored as ISO strings, so a Date becomes its string. */
function operand(path: string, value: unknown): unknown {
  if (TIMESTAMP_COLUMNS.has(path)) return normalizeIso(isTyped(value, 'Date') ? value['iso'] : value) ?? value;
  return normalizeValue(value, 1);
}

/** Values gathered into a `ValueSet`, each paid for: `$in`, `$nin` and `$all` then cost one lookup per stored value. */
function valueSet(ctx: WhereContext, values: unknown[]): ValueSet {
  ctx.run.budget.charge(values.length * COST.compile);
  return new ValueSet(values);
}

function operandList(ctx: WhereContext, op: string, path: string, value: unknown): ValueSet {
  if (!Array.isArray(value)) throw invalid(`${op} takes an array`);
  return valueSet(
    ctx,
    value.map((item) => operand(path, item)),
  );
}

/**
 * The values of a sub-query, evaluated once per request: `kind` and the canonical JSON of what defines it name it,
 * so the same sub-query written any number of times (in any key order) runs once and is paid for once.
 */
function memoized(ctx: WhereContext, kind: string, definition: unknown, evaluate: () => unknown[]): ValueSet {
  const key = `${kind}:${canonicalJson(definition)}`;
  ctx.run.budget.charge(Math.ceil(key.length / COST.keyChars));
  const known = ctx.run.subQueries.get(key);
  if (known) return known;
  const values = valueSet(ctx, evaluate());
  ctx.run.subQueries.set(key, values);
  return values;
}

/** A sub-query `{className, where}`: its table and where, checked. */
function subQuery(op: string, spec: unknown): { className: string; where: unknown } {
  if (!isPlainObject(spec) || typeof spec['className'] !== 'string')
    throw invalid(`${op} takes {"className": "<table>", "where": {...}}`);
  return { className: checkTableName(spec['className']), where: spec['where'] ?? {} };
}

const rowsOf = (ctx: WhereContext, { className, where }: { className: string; where: unknown }) =>
  ctx.run.matchingRows({ ...ctx, tableName: className, depth: ctx.depth + 1 }, where);

/** `$select`/`$dontSelect`: the values of `key` in the rows of a sub-query `{query: {className, where}, key}`. */
function selectedValues(ctx: WhereContext, op: string, spec: unknown): ValueSet {
  if (!isPlainObject(spec) || typeof spec['key'] !== 'string')
    throw invalid(`${op} takes {"query": {"className": "<table>", "where": {...}}, "key": "<column>"}`);
  const key = checkPath(spec['key']);
  const query = subQuery(op, spec['query']);
  return memoized(ctx, 'select', { query, key }, () =>
    rowsOf(ctx, query)
      .map((row) => valueAt(row, key))
      .filter((value) => value !== undefined),
  );
}

/** `$inQuery`/`$notInQuery`: pointers to the rows of a sub-query `{className, where}`. */
function pointersTo(ctx: WhereContext, op: string, spec: unknown): ValueSet {
  const query = subQuery(op, spec);
  return memoized(ctx, 'pointers', query, () =>
    rowsOf(ctx, query).map((row) => ({ __type: 'Pointer', className: query.className, _id: row._id })),
  );
}

function regexClause(ctx: WhereContext, path: string, pattern: unknown, options: unknown): Clause {
  if (typeof pattern !== 'string') throw invalid('$regex takes a string pattern');
  if (options !== undefined && (typeof options !== 'string' || !/^[ims]*$/.test(options)))
    throw invalid('$options takes the flags i, m and s');
  return { [path]: { [SAFE_REGEX]: new RegexOperand(pattern, (options as string | undefined) ?? '', ctx.run.budget) } };
}

/** The clauses of one column's condition: a plain value (equality, or "array contains") or an operator object. */
function fieldClauses(ctx: WhereContext, path: string, condition: unknown): Clause[] {
  const isOperatorObject = isPlainObject(condition) && Object.keys(condition).some((key) => key.startsWith('$'));
  if (!isOperatorObject) return [{ [path]: { $eq: operand(path, condition) } }];
  const clauses: Clause[] = [];
  for (const [op, value] of Object.entries(condition)) {
    if (RANGE_OPS.has(op) || op === '$eq' || op === '$ne') {
      const stored = operand(path, value);
      // Dates compare by their canonical ISO strings, which sort chronologically.
      if (RANGE_OPS.has(op) && isTyped(stored, 'Date')) clauses.push({ [`${path}.iso`]: { [op]: stored['iso'] } });
      else clauses.push({ [path]: { [op]: stored } });
    } else if (op === '$in' || op === '$nin' || op === '$all') {
      clauses.push({ [path]: { [op]: operandList(ctx, op, path, value) } });
    } else if (op === '$exists') {
      if (typeof value !== 'boolean') throw invalid('$exists takes true or false');
      clauses.push({ [path]: { $exists: value } });
    } else if (op === '$regex') {
      clauses.push(regexClause(ctx, path, value, condition['$options']));
    } else if (op === '$options') {
      if (!('$regex' in condition)) throw invalid('$options goes with $regex');
    } else if (op === '$select' || op === '$dontSelect' || op === '$dontselect') {
      clauses.push({ [path]: { [op === '$select' ? '$in' : '$nin']: selectedValues(ctx, op, value) } });
    } else if (op === '$inQuery' || op === '$notInQuery') {
      clauses.push({ [path]: { [op === '$inQuery' ? '$in' : '$nin']: pointersTo(ctx, op, value) } });
    } else {
      throw invalid(`unknown query operator "${op}" on "${path}"`);
    }
  }
  return clauses;
}

/** `$relatedTo: {object: <pointer>, key: <relation column>}`: the rows of this table related to that row. */
function relatedToClause(ctx: WhereContext, spec: unknown): Clause {
  if (!isPlainObject(spec) || typeof spec['key'] !== 'string')
    throw invalid('$relatedTo takes {"object": <pointer>, "key": "<relation column>"}');
  const owner = parsePointer(spec['object']);
  const table = ctx.project.state(databaseState).tables.get(owner.className);
  const row = table?.rows.get(owner._id);
  const column = table?.columns.get(spec['key']);
  const related =
    row && canRead(row, ctx.principal) && column?.type === 'Relation' && column.targetClass === ctx.tableName
      ? [...(table!.relations.get(owner._id)?.get(spec['key']) ?? [])]
      : [];
  return { _id: { $in: valueSet(ctx, related) } };
}

/**
 * Checks a where object (docs/database.md#queries) and resolves what is specific to this API (sub-queries, `$relatedTo`, dates,
 * safe regular expressions, lists as `ValueSet`s) into clauses for predicate.ts. 400 code 102 for anything it does
 * not understand; 400 code 150 when resolving it (sub-queries included) passes the query's budget.
 */
export function resolveWhere(ctx: WhereContext, where: unknown): Clause[] {
  if (ctx.depth > MAX_DEPTH) throw invalid(`queries may be nested at most ${MAX_DEPTH} levels deep`);
  if (!isPlainObject(where)) throw invalid('a query is a JSON object');
  const clauses: Clause[] = [];
  for (const [key, condition] of Object.entries(where)) {
    if (LOGICAL_OPS.has(key)) {
      if (!Array.isArray(condition) || condition.length === 0)
        throw invalid(`${key} takes a non-empty array of queries`);
      clauses.push({ [key]: condition.map((sub) => resolveWhere({ ...ctx, depth: ctx.depth + 1 }, sub)) });
    } else if (key === '$relatedTo') {
      clauses.push(relatedToClause(ctx, condition));
    } else if (key.startsWith('$')) {
      throw invalid(`unknown query operator "${key}"`);
    } else {
      clauses.push(...fieldClauses(ctx, checkPath(key), condition));
    }
  }
  return clauses;
}
