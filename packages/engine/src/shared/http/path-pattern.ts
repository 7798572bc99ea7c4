import { servicePath } from './path.js';

/** What a path pattern is checked against: a request's path as the routes see it (`servicePath`), without its query. */
export type PathTest = (path: string) => boolean;

const PARAMETER = /^\{[A-Za-z_][\w-]*\}$/;

/** Letters of a literal segment that mean something to a regular expression, escaped. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A path as a test: a concrete path matches itself, a pattern written as the contract writes its paths
 * (`/object-storage/classes/{tableName}/{objectId}`) matches every path of that shape. `{name}` stands for one
 * segment; `{path}`, as in the contract's download operation `/{bucket}/{path}`, for the rest of the path, folders
 * included. Paths are compared as the routes read them (`servicePath`: runs of `/` as one, no trailing `/`).
 *
 * @example
 * const test = pathPattern('/object-storage/classes/{tableName}/{objectId}');
 * test('/object-storage/classes/Score/a1B2c3'); // true
 * test('/object-storage/classes/Score');        // false
 */
export function pathPattern(pattern: string): PathTest {
  const segments = servicePath(pattern).split('/').slice(1);
  if (!segments.some((segment) => segment.includes('{'))) {
    const path = servicePath(pattern);
    return (candidate) => candidate === path;
  }
  const source = segments
    .map((segment, i) => {
      if (!PARAMETER.test(segment)) return escapeRegExp(segment);
      return segment === '{path}' && i === segments.length - 1 ? '.+' : '[^/]+';
    })
    .join('/');
  const regex = new RegExp(`^/${source}$`);
  return (candidate) => regex.test(candidate);
}

/** Why `pattern` is not a path pattern, or undefined when it is one. */
export function patternProblem(pattern: string): string | undefined {
  if (!pattern.startsWith('/')) return 'must start with "/"';
  if (pattern.length > 2000) return 'must be at most 2000 characters';
  if (/[?#\s]/.test(pattern)) return 'must be a path alone: no query, fragment or white space';
  const bad = pattern.split('/').find((segment) => segment.includes('{') && !PARAMETER.test(segment));
  return bad === undefined ? undefined : `has the segment "${bad}": a parameter is a whole segment, "{name}"`;
}
