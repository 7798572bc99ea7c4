import { getPath } from 'hono/utils/url';
import { filesState } from './areas/files/state.js';
import { RESTORE_PATH, SNAPSHOTS_PATH } from './admin/snapshots.js';
import { CONFIRMATION_PATH } from './areas/users/confirmation.js';
import { FAULTS_PATH } from './faults/routes.js';
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
 * themselves where the files area saves its own tree and bytes (`persistsItself`: the Node server), a snapshot's
 * restore is kept by writing the state whole, every other change is recorded. The one GET that changes state is the
 * e-mail confirmation link.
 */
export function requestKind(request: Request, project: Project): RequestKind {
  const path = servicePath(getPath(request));
  if (READ_METHODS.has(request.method)) return path.startsWith(`${CONFIRMATION_PATH}/`) ? 'record' : 'read';
  // Emptying the request inspector changes nothing the journal keeps (the inspector lives in memory only).
  if (path === INSPECTOR_PATH) return 'read';
  // Faults live in memory only, for the server's run; setting one draws a seed, so it never runs beside a recording.
  if (path === FAULTS_PATH || path.startsWith(`${FAULTS_PATH}/`)) return 'own';
  // Named snapshots live in memory only too; restoring one changes the state in a way no replay could repeat.
  if (path.startsWith(`${SNAPSHOTS_PATH}/`)) return RESTORE_PATH.test(path) ? 'whole' : 'own';
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
