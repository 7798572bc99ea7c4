import { getPath } from 'hono/utils/url';
import { filesState } from './areas/files/state.js';
import { CONFIRMATION_PATH } from './areas/users/confirmation.js';
import { INSPECTOR_PATH } from './inspector/recorder.js';
import type { RequestKind } from './shared/journal.js';
import { servicePath } from './shared/path.js';
import type { Project } from './shared/project.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Operations sent with POST that only read (a query, a lookup by ids, scores of some users). */
const READ_POSTS = [
  /^\/object-storage\/classes\/query\//,
  /^\/auth\/users\/by-user-ids$/,
  /^\/game\/leaderboards\/usersScore\//,
];

/** The files area's changes. */
const FILES_WRITES = /^\/(files|directories)(\/|$)/;

/**
 * How the journal treats a request (see `RequestKind`), from its method and path: reads run freely, file changes keep
 * themselves where the files area saves its own tree and bytes (`persistsItself`: the Node server), every other
 * change is recorded. The one GET that changes state is the e-mail confirmation link.
 */
export function requestKind(request: Request, project: Project): RequestKind {
  const path = servicePath(getPath(request));
  if (READ_METHODS.has(request.method)) return path.startsWith(`${CONFIRMATION_PATH}/`) ? 'record' : 'read';
  // The request inspector lives in memory only: emptying it changes nothing the journal keeps, and a replay's own
  // request is kept as any other (recording the replay too would send it twice at start-up).
  if (path === INSPECTOR_PATH || path.startsWith(`${INSPECTOR_PATH}/`)) return 'read';
  if (FILES_WRITES.test(path) && project.persistsItself(filesState)) return 'own';
  if (request.method === 'POST' && READ_POSTS.some((read) => read.test(path))) return 'read';
  return 'record';
}

/**
 * The largest body the engine takes for a recorded request (the journal reads it first, and no further): an upload or
 * a whole state import `maxUploadBytes`, anything else `maxJsonBodyBytes`, as the routes themselves check.
 */
export function recordedBodyLimit(request: Request, project: Project): number {
  const path = servicePath(getPath(request));
  const large = FILES_WRITES.test(path) || (request.method === 'PUT' && path === '/__admin/state');
  return large ? project.config.maxUploadBytes : project.config.maxJsonBodyBytes;
}
