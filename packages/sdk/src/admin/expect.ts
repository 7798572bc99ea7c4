import { BasekitError } from '../core/errors.js';
import type { components } from '../generated/schema.js';

type RequestSummary = components['schemas']['AdminRequestSummary'];

/**
 * The requests a test expects the app to have made.
 *
 * @example
 * const saves: ExpectedRequests = { method: 'PUT', path: '/object-storage/classes/{tableName}/{objectId}', times: 2 };
 * await admin.requests.expect(saves);
 */
export interface ExpectedRequests {
  /** Only this method; any method when absent. */
  method?: string;
  /** A concrete path or a pattern as the contract writes paths: `/object-storage/classes/{tableName}/{objectId}`. */
  path: string;
  /** How many; 1 when absent. */
  times?: number;
}

/**
 * The requests the project answered are not the ones a test expected (`admin.requests.expect`); the message lists
 * what did arrive, the closest first.
 *
 * @example
 * catch (e) { if (e instanceof VerificationError) console.log(e.matched, e.others) }
 */
export class VerificationError extends BasekitError {
  override name = 'VerificationError';

  constructor(
    message: string,
    /** The requests that matched (fewer or more than expected). */
    readonly matched: RequestSummary[],
    /** The other requests kept, closest to the expected ones first. */
    readonly others: RequestSummary[],
  ) {
    super(message);
  }
}

/** How many of the other requests a message lists. */
const LISTED = 10;

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

/** How far a request is from the expected ones: the paths' edit distance (a parameter takes the request's segment), another method counting 3. */
function farness(expected: ExpectedRequests, request: RequestSummary): number {
  const path = request.path.split('?', 1)[0]!.slice(0, 200);
  const segments = path.split('/');
  const filled = expected.path
    .split('/')
    .map((segment, i) => (segment.startsWith('{') ? (segments[i] ?? segment) : segment))
    .join('/');
  const otherMethod = expected.method !== undefined && expected.method.toUpperCase() !== request.method;
  return distance(path, filled) + (otherMethod ? 3 : 0);
}

const line = (request: RequestSummary) =>
  `  ${request.method} ${request.path} → ${request.injected?.kind === 'reset' ? 'dropped' : request.status}`;

/** The error of an expectation that `count` of the kept requests met, with the closest of `others` listed. */
export function verificationError(
  expected: ExpectedRequests,
  count: number,
  matched: RequestSummary[],
  recent: RequestSummary[],
): VerificationError {
  const times = expected.times ?? 1;
  const what = `${expected.method?.toUpperCase() ?? 'any method'} ${expected.path}`;
  const ids = new Set(matched.map((request) => request.id));
  const others = recent
    .filter((request) => !ids.has(request.id))
    .map((request) => ({ request, farness: farness(expected, request) }))
    .sort((a, b) => a.farness - b.farness)
    .map(({ request }) => request);
  const lines = [`expected ${times} request${times === 1 ? '' : 's'} ${what}; the project answered ${count}`];
  if (matched.length) lines.push('that matched (newest first):', ...matched.map(line));
  lines.push(
    others.length
      ? `the closest of the other requests it answered (of its last ${recent.length}):`
      : 'it answered no other request',
    ...others.slice(0, LISTED).map(line),
  );
  return new VerificationError(lines.join('\n'), matched, others);
}
