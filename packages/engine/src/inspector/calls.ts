import type { AppContext } from '../shared/env.js';
import { ApiError, ErrorCode, badRequest } from '../shared/errors.js';
import { intParam } from '../shared/http/body.js';
import { pathPattern, patternProblem } from '../shared/http/path-pattern.js';
import { seqOfId, type Exchange, type InspectedArea } from './exchange.js';
import { inspectorOf, type ExchangeFilter, type Inspector } from './inspector.js';
import { replay } from './replay.js';
import { exchangeEvents } from './stream.js';
import { loadOnce } from '../shared/util/load-once.js';

const harFormat = loadOnce(() => import('./har.js'));

// The request inspector's admin API (`routes.ts`), loaded with its first call: apps that mock the service rarely
// read it.

const AREAS: readonly InspectedArea[] = [
  'users',
  'database',
  'storage',
  'transcoder',
  'leaderboards',
  'admin',
  'other',
];

/** The project's inspector; 409 (code 171) while recording is off, so that a client is told why it sees nothing. */
function recordingInspector(c: AppContext): Inspector {
  const inspector = inspectorOf(c.env.project);
  if (inspector.capacity === 0)
    throw new ApiError(409, ErrorCode.INSPECTOR_OFF, "request recording is off (the config's inspectorLimit is 0)");
  return inspector;
}

function filterOf(c: AppContext): ExchangeFilter {
  const { area, status, user, text, method, path } = c.req.query();
  const filter: ExchangeFilter = {};
  if (area) {
    if (!AREAS.includes(area as InspectedArea))
      throw badRequest(ErrorCode.VALIDATION_FAILED, `"area" must be one of ${AREAS.join(', ')}`);
    filter.area = area as InspectedArea;
  }
  if (status) {
    if (/^[1-5]xx$/i.test(status)) filter.status = { class: Number(status[0]) };
    else if (/^[1-5]\d\d$/.test(status)) filter.status = { exact: Number(status) };
    else
      throw badRequest(ErrorCode.VALIDATION_FAILED, '"status" must be a status class (2xx ... 5xx) or a status (404)');
  }
  if (user) filter.user = user;
  if (text) filter.text = text;
  if (method) filter.method = method.toUpperCase();
  if (path) {
    const problem = patternProblem(path);
    if (problem) throw badRequest(ErrorCode.VALIDATION_FAILED, `"path" ${problem}`);
    filter.path = pathPattern(path);
  }
  return filter;
}

function beforeOf(c: AppContext): number | undefined {
  const before = c.req.query('before');
  if (!before) return undefined;
  const seq = seqOfId(before);
  if (seq === undefined)
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"before" must be the id of a request of this server run');
  return seq;
}

export function listRequests(c: AppContext): Response {
  const inspector = recordingInspector(c);
  const filter = filterOf(c);
  const page = inspector.list(filter, intParam(c, 'limit', { min: 1, max: 1000, fallback: 100 }), beforeOf(c));
  // `count=1`: how many kept requests match in all, for verifying what an app did without paging through them.
  const count = c.req.query('count') === '1' ? { count: inspector.count(filter) } : {};
  return c.json({ ...page, capacity: inspector.capacity, ...count });
}

export function clearRequests(c: AppContext): Response {
  inspectorOf(c.env.project).clear();
  return c.json({});
}

export function streamRequests(c: AppContext): Response {
  const events = exchangeEvents(recordingInspector(c), c.req.raw.signal);
  return new Response(events, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
    },
  });
}

export async function exportHar(c: AppContext): Promise<Response> {
  const inspector = recordingInspector(c);
  const limit = intParam(c, 'limit', { min: 1, max: Number.MAX_SAFE_INTEGER, fallback: inspector.capacity });
  const exchanges = inspector.matching(filterOf(c), limit);
  const { toHar } = await harFormat();
  return c.json(toHar(exchanges), 200, { 'Content-Disposition': 'attachment; filename="requests.har"' });
}

/** A kept request, or 404 (code 170). */
function keptExchange(inspector: Inspector, id: string): Exchange {
  const exchange = inspector.get(id);
  if (!exchange)
    throw new ApiError(
      404,
      ErrorCode.REQUEST_NOT_KEPT,
      'no such request is kept (only the last inspectorLimit requests of this server run are)',
    );
  return exchange;
}

export function oneRequest(c: AppContext): Response {
  return c.json(keptExchange(recordingInspector(c), c.req.param('id') ?? '').details());
}

export async function replayRequest(c: AppContext): Promise<Response> {
  const inspector = recordingInspector(c);
  return c.json(await replay(c.env.project, inspector, keptExchange(inspector, c.req.param('id') ?? '')));
}
