import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext } from '../shared/env.js';
import { ErrorCode, type ErrorCodeValue } from '../shared/errors.js';
import type { AppliedFault } from './faults.js';

/** status, the operations it is for (by method and path, `*` any method), and the body they answer with. */
type DefaultError = [number, RegExp, ErrorCodeValue, string];

/**
 * The body an injected status gets when the fault gives none: the code and words the service uses for that status
 * on that operation, after docs/errors.md (the first row that fits wins); other statuses get code 40.
 */
const DEFAULT_ERRORS: readonly DefaultError[] = [
  [401, /^POST \/auth\/login$/, ErrorCode.INVALID_CREDENTIALS, 'username or password incorrect'],
  [417, /^POST \/auth\/login$/, ErrorCode.INVALID_KEY, 'authentication id or key incorrect'],
  [409, /^POST \/auth\/users$/, ErrorCode.USERNAME_TAKEN, 'user already exists'],
  [404, /^\S+ \/auth\//, ErrorCode.UNKNOWN_PROJECT, 'authentication id wrong'],
  [417, /^\S+ \/auth\//, ErrorCode.UNKNOWN_PROJECT, 'authentication id wrong'],
  [404, /^\S+ \/object-storage\//, ErrorCode.OBJECT_NOT_FOUND, 'a required resource such as the table does not exist'],
  [417, /^POST \/files$/, ErrorCode.FILE_EXISTS, 'a file already exists'],
  [404, /^\S+ \/(files|directories)\b/, ErrorCode.FILE_NOT_FOUND, 'files or folders not found'],
  [417, /^\S+ \/files\//, ErrorCode.NOT_SAME_PARENT, 'not the same parent'],
  [417, /^\S+ \/game\//, ErrorCode.UNKNOWN_EVENT, 'service not enabled, or event data incorrect'],
  [400, /^/, ErrorCode.VALIDATION_FAILED, 'request syntax incorrect'],
  [401, /^/, ErrorCode.INVALID_TOKEN, 'access token is missing, invalid or expired'],
  [403, /^/, ErrorCode.OPERATION_FORBIDDEN, 'permission denied'],
  [413, /^/, ErrorCode.REQUEST_TOO_LARGE, 'request body is too large'],
  [500, /^/, ErrorCode.INTERNAL, 'server failed'],
  [503, /^/, ErrorCode.SERVICE_DISABLED, 'the service is disabled'],
];

/** The `{code, error}` of an injected status for `method path`, where the fault gives neither or only one. */
function defaultError(status: number, method: string, path: string): { code: number; error: string } {
  const operation = `${method} ${path}`;
  const found = DEFAULT_ERRORS.find(([s, operations]) => s === status && operations.test(operation));
  return found
    ? { code: found[2], error: found[3] }
    : { code: ErrorCode.FAULT_INJECTED, error: `an injected fault answered ${status}` };
}

/**
 * The answer a fault gives in place of the routes: its status with a `{code, error}` body, or for `reset`
 * `Response.error()`, the web's "no answer", on which each transport drops the connection (Node) or fails the fetch
 * with a network error (msw does so for any resolver that returns it).
 */
export function injectedAnswer(c: AppContext, fault: AppliedFault): Response {
  const { status, code, error } = fault.spec;
  if (status === undefined) return Response.error();
  const defaults = defaultError(status, c.req.method, c.req.path);
  return c.json({ code: code ?? defaults.code, error: error ?? defaults.error }, status as ContentfulStatusCode);
}
