// The database page's query lives in the URL (?where=…&order=…&keys=…&include=…&limit=…&skip=…), so a query can be
// shared as a link; these turn it into the service's own request (docs/database.md#queries, the contract's `queryRows`) and back.

/** The query of the grid as the URL holds it: `where` as JSON text, the others as the service takes them. */
export interface GridQuery {
  where: string;
  order: string;
  keys: string;
  include: string;
  limit: number;
  skip: number;
}

const PAGE_SIZE = 20;
/** The service's largest `limit` (the contract's `queryRows` sets none; the reference server answers 400 above it). */
const LIMIT_MAX = 1000;

const count = (text: string | null, fallback: number, max: number): number => {
  const n = Number(text);
  return text !== null && Number.isSafeInteger(n) && n >= 0 ? Math.min(n, max) : fallback;
};

/** The grid query of a URL's search part; missing or malformed numbers take their defaults. */
export function readGridQuery(search: URLSearchParams): GridQuery {
  return {
    where: search.get('where') ?? '',
    order: search.get('order') ?? '',
    keys: search.get('keys') ?? '',
    include: search.get('include') ?? '',
    limit: count(search.get('limit'), PAGE_SIZE, LIMIT_MAX) || PAGE_SIZE,
    skip: count(search.get('skip'), 0, Number.MAX_SAFE_INTEGER),
  };
}

/** The URL values of a grid query, defaults left out so that plain links stay short. */
export function gridQueryValues(query: GridQuery): Record<string, string | number | undefined> {
  return {
    where: query.where.trim() || undefined,
    order: query.order.trim() || undefined,
    keys: query.keys.trim() || undefined,
    include: query.include.trim() || undefined,
    limit: query.limit === PAGE_SIZE ? undefined : query.limit,
    skip: query.skip || undefined,
  };
}

/** `where` parsed: an object, or an error message to show beside the field. */
export function parseWhere(text: string): { where: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { where: {} };
  try {
    const where: unknown = JSON.parse(text);
    if (typeof where === 'object' && where !== null && !Array.isArray(where))
      return { where: where as Record<string, unknown> };
    return { error: 'where must be a JSON object, e.g. {"score": {"$gt": 10}}' };
  } catch (error) {
    return { error: `where is not JSON: ${(error as Error).message}` };
  }
}

/** The URL parameters of the service's query (the contract's `queryRows`) with the grid's values and `count=1` (the total for paging). */
export function queryParams(query: GridQuery) {
  const given = (name: 'order' | 'keys' | 'include') => query[name].trim() || undefined;
  return {
    count: '1' as const,
    limit: query.limit,
    skip: query.skip,
    order: given('order'),
    keys: given('keys'),
    include: given('include'),
  };
}
