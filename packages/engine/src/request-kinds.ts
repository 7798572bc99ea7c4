import { getPath } from 'hono/utils/url';
import { filesState } from './areas/files/state.js';
import { RESTORE_PATH, SNAPSHOTS_PATH } from './admin/snapshots.js';
import { CONFIRMATION_PATH } from './areas/users/confirmation.js';
import { FAULTS_PATH } from './faults/routes.js';
import { INSPECTOR_PATH } from './inspector/recorder.js';
import type { RequestKind, SecretInputs } from './shared/journal.js';
import { servicePath } from './shared/path.js';
import type { Project } from './shared/project.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Operations sent with POST that only read (a query, a lookup by ids, scores of some users). */
const READ_POSTS = [
  /^\/object-storage\/classes\/query\//,
  /^\/auth\/users\/by-user-ids$/,
  /^\/game\/leaderboards\/usersScore\//,
];

/** A whole state import (`PUT /__admin/state`). */
const STATE_PATH = '/__admin/state';

/** The files area's changes. */
const FILES_WRITES = /^\/(files|directories)(\/|$)/;

/**
 * How the journal treats a request (see `RequestKind`), from its method and path: reads run freely, file changes keep
 * themselves where the files area saves its own tree and bytes (`persistsItself`: the Node server), an import or a
 * named snapshot's restore is kept as the state it leaves, every other change is recorded. The one GET that changes
 * state is the e-mail confirmation link.
 */
export function requestKind(request: Request, project: Project): RequestKind {
  const path = servicePath(getPath(request));
  if (READ_METHODS.has(request.method)) return path.startsWith(`${CONFIRMATION_PATH}/`) ? 'record' : 'read';
  // The request inspector lives in memory only: emptying it changes nothing the journal keeps, and a replay's own
  // request is kept as any other (recording the replay too would send it twice at start-up).
  if (path === INSPECTOR_PATH || path.startsWith(`${INSPECTOR_PATH}/`)) return 'read';
  // Faults live in memory only, for the server's run; setting one draws a seed, so it never runs beside a recording.
  if (path === FAULTS_PATH || path.startsWith(`${FAULTS_PATH}/`)) return 'own';
  // Named snapshots live in memory only too; restoring one replaces the whole state, which no replay could repeat: it is
  // kept as the journal snapshot it leaves, as an import is.
  if (path.startsWith(`${SNAPSHOTS_PATH}/`)) return RESTORE_PATH.test(path) ? 'snapshot' : 'own';
  if (FILES_WRITES.test(path) && project.persistsItself(filesState)) return 'own';
  if (request.method === 'POST' && READ_POSTS.some((read) => read.test(path))) return 'read';
  // A whole state import is kept as the snapshot it makes, not as the export it was sent.
  if (request.method === 'PUT' && path === STATE_PATH) return 'snapshot';
  return 'record';
}

/**
 * The inputs that carry a password or a token a client holds, by operation: the journal never writes them (see
 * `SecretInputs`). Keys and access tokens in headers need no entry: the journal keeps no header as sent that holds one.
 */
const SECRET_INPUTS: [method: string, path: RegExp, inputs: SecretInputs][] = [
  ['POST', /^\/auth\/users$/, { json: ['password'] }],
  ['POST', /^\/auth\/guest-users\/complete-registration-master$/, { json: ['lastPassword', 'newPassword'] }],
  ['POST', /^\/auth\/login$/, { form: ['password', 'refresh_token'] }],
  ['DELETE', /^\/auth\/logout$/, { query: ['refresh-token'] }],
];

/** The secret inputs of a recorded request (see `SECRET_INPUTS`). */
export function secretInputs(request: Request): SecretInputs | undefined {
  const path = servicePath(getPath(request));
  return SECRET_INPUTS.find(([method, pattern]) => method === request.method && pattern.test(path))?.[2];
}

/** A table's rows imported at once (`POST /__admin/database/tables/{table}/import`). */
const TABLE_IMPORT = /^\/__admin\/database\/tables\/[^/]+\/import$/;

/**
 * The largest body the engine takes for a recorded request (the journal reads it first, and no further): an upload,
 * a whole state import or a table import `maxUploadBytes`, anything else `maxJsonBodyBytes`, as the routes themselves
 * check.
 */
export function recordedBodyLimit(request: Request, project: Project): number {
  const path = servicePath(getPath(request));
  const large =
    FILES_WRITES.test(path) ||
    (request.method === 'PUT' && path === STATE_PATH) ||
    (request.method === 'POST' && TABLE_IMPORT.test(path));
  return large ? project.config.maxUploadBytes : project.config.maxJsonBodyBytes;
}
