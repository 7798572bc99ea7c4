/** One operation the engine serves, as the contract writes it: `POST /object-storage/classes/{tableName}`. */
export interface Operation {
  method: string;
  /** Segments; a parameter is `{name}`, and `{path}` last stands for the rest of the path. */
  segments: string[];
}

/** A route of a Hono app, in the parts read here. */
interface Route {
  method: string;
  path: string;
}

/** Longest part of a path that is compared: a path's cost to explain stays bounded whatever a client sends. */
const COMPARED = 200;
/** Added to the distance of an operation of another method than the request's. */
const OTHER_METHOD = 3;

const isParameter = (segment: string) => segment.startsWith('{');

/**
 * The operations among an app's routes: middlewares (`ALL`, `*`) left out, `:name` written `{name}`, a trailing `/`
 * dropped, each once; the downloads route (`GET /*`) as `GET /<bucket>/{path}` is added by the caller.
 */
export function operationsOf(routes: readonly Route[]): Operation[] {
  const seen = new Map<string, Operation>();
  for (const { method, path } of routes) {
    if (method === 'ALL' || path.includes('*')) continue;
    const segments = path
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment));
    const key = `${method} /${segments.join('/')}`;
    if (!seen.has(key)) seen.set(key, { method, segments });
  }
  return [...seen.values()];
}

/** Levenshtein distance of two short strings. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** How far `path` is from the operation's path: its parameters take the request's segments where it has them. */
function pathDistance(operation: Operation, segments: readonly string[], path: string): number {
  const filled = operation.segments.map((segment, i) => {
    if (!isParameter(segment)) return segment;
    if (segment === '{path}' && i === operation.segments.length - 1) return segments.slice(i).join('/') || segment;
    return segments[i] ?? segment;
  });
  return distance(path, `/${filled.join('/')}`.slice(0, COMPARED));
}

/** `METHOD /path/{param}`, as the contract writes an operation. */
const describeOperation = ({ method, segments }: Operation) => `${method} /${segments.join('/')}`;

/**
 * The operations closest to `method path`, nearest first: by the edit distance of the paths (a parameter matches the
 * request's segment at its place), another method counting a little more. The admin API's operations are offered
 * only for a path under `/__admin`.
 *
 * @example
 * closestOperations(operations, 'GET', '/object-storage/class/Score/a1'); // ['GET /object-storage/classes/{table}/{id}', ...]
 */
export function closestOperations(operations: readonly Operation[], method: string, path: string, count = 3): string[] {
  const compared = path.slice(0, COMPARED);
  const segments = compared.split('/').filter((segment) => segment !== '');
  const admin = path.startsWith('/__admin');
  return operations
    .filter((operation) => (operation.segments[0] === '__admin') === admin)
    .map((operation) => ({
      operation,
      score: pathDistance(operation, segments, compared) + (operation.method === method ? 0 : OTHER_METHOD),
    }))
    .sort((a, b) => a.score - b.score)
    .slice(0, count)
    .map(({ operation }) => describeOperation(operation));
}
