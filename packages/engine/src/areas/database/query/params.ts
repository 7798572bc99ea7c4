import type { AppContext } from '../../../shared/env.js';
import { ApiError, ErrorCode, badRequest } from '../../../shared/errors.js';
import { intParam } from '../../../shared/http/body.js';
import { checkPath } from '../values/names.js';
import type { QueryOptions } from './query.js';

const LIMIT_MAX = 1000;
const LIMIT_DEFAULT = 100;
const SAMPLE_MAX = 1000;

/** A malformed URL parameter of a query is an invalid query (code 102). */
function queryInt(c: AppContext, name: string, bounds: { min: number; max: number; fallback?: number }): number {
  try {
    return intParam(c, name, bounds);
  } catch (error) {
    if (error instanceof ApiError) throw badRequest(ErrorCode.INVALID_QUERY, error.message);
    throw error;
  }
}

/** The items of a comma-separated parameter; undefined when it is absent. */
function list(c: AppContext, name: string): string[] | undefined {
  const raw = c.req.query(name);
  if (raw === undefined) return undefined;
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const pathList = (c: AppContext, name: string) => list(c, name)?.map(checkPath);

/** The URL parameters of a query (the contract's `queryRows`): order, limit, skip, keys, include, count, sample. */
export function queryOptions(c: AppContext): QueryOptions {
  const count = c.req.query('count');
  if (count !== undefined && !['1', '0', 'true', 'false'].includes(count))
    throw badRequest(ErrorCode.INVALID_QUERY, 'query parameter "count" must be 1 or 0');
  const options: QueryOptions = {
    order: (list(c, 'order') ?? []).map((key) =>
      key.startsWith('-')
        ? { path: checkPath(key.slice(1)), descending: true }
        : { path: checkPath(key), descending: false },
    ),
    limit: queryInt(c, 'limit', { min: 0, max: LIMIT_MAX, fallback: LIMIT_DEFAULT }),
    skip: queryInt(c, 'skip', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
    include: pathList(c, 'include') ?? [],
    count: count === '1' || count === 'true',
  };
  const keys = pathList(c, 'keys');
  if (keys) options.keys = keys;
  if (c.req.query('sample') !== undefined) options.sample = queryInt(c, 'sample', { min: 1, max: SAMPLE_MAX });
  return options;
}
