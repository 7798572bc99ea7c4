import type { NetworkFailureReason } from './network-failure.browser.js';

/**
 * The body of every error the service answers.
 *
 * @example
 * const body: ErrorBody = await response.json(); // { code: 101, error: 'no such user' }
 */
export interface ErrorBody {
  code: number;
  error: string;
}

/**
 * Base of every error the SDK throws; `instanceof BasekitError` catches them all.
 *
 * @example
 * catch (e) { if (e instanceof BasekitError) report(e.name, e.message) }
 */
export class BasekitError extends Error {
  override name = 'BasekitError';
}

/**
 * Where a failed call went: the operation (`POST /auth/login`) and the request sent.
 *
 * @example
 * catch (e) { if (e instanceof ServiceError) console.log(e.request.method, e.request.url) }
 */
export interface RequestInfo {
  operation: string;
  method: string;
  url: string;
}

/**
 * The service answered with an error status. `status` is the HTTP status, `code` the service's error code
 * (see docs/errors.md), `message` its text.
 *
 * @example
 * try { await client.db.table('Note').get('nope') }
 * catch (e) { if (e instanceof NotFoundError) console.log(e.code, e.message) }
 */
export class ServiceError extends BasekitError {
  override name = 'ServiceError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly request: RequestInfo,
  ) {
    super(message);
  }

  /** The contract's operation that failed, e.g. `POST /auth/login`. */
  get operation(): string {
    return this.request.operation;
  }

  /** The subclass that fits the status, built from an error response's body. */
  static from(status: number, body: unknown, request: RequestInfo): ServiceError {
    const { code, error } = isErrorBody(body) ? body : { code: 0, error: `HTTP ${status}` };
    const Class = STATUS_CLASSES[status] ?? (status >= 500 ? ServerError : ServiceError);
    return new Class(status, code, error, request);
  }
}

/**
 * 400: the request is malformed or a field is invalid.
 *
 * @example
 * catch (e) { if (e instanceof ValidationError) form.showError(e.message) }
 */
export class ValidationError extends ServiceError {
  override name = 'ValidationError';
}
/**
 * 401: the token or the credentials are missing, wrong or expired.
 *
 * @example
 * catch (e) { if (e instanceof UnauthorizedError) showLogin() }
 */
export class UnauthorizedError extends ServiceError {
  override name = 'UnauthorizedError';
}
/**
 * 403: the caller may not do this.
 *
 * @example
 * catch (e) { if (e instanceof ForbiddenError) alert('not allowed') }
 */
export class ForbiddenError extends ServiceError {
  override name = 'ForbiddenError';
}
/**
 * 404: what the request names does not exist.
 *
 * @example
 * const note = await notes.get(id).catch((e) => { if (e instanceof NotFoundError) return undefined; throw e })
 */
export class NotFoundError extends ServiceError {
  override name = 'NotFoundError';
}
/**
 * 409: it already exists.
 *
 * @example
 * catch (e) { if (e instanceof ConflictError) askForAnotherUsername() }
 */
export class ConflictError extends ServiceError {
  override name = 'ConflictError';
}
/**
 * 413: the upload is too large.
 *
 * @example
 * catch (e) { if (e instanceof PayloadTooLargeError) alert('file too large') }
 */
export class PayloadTooLargeError extends ServiceError {
  override name = 'PayloadTooLargeError';
}
/**
 * 417: a precondition failed (wrong key or id, a limit, a file that exists, a disabled service).
 *
 * @example
 * catch (e) { if (e instanceof ExpectationFailedError && e.code === 601) askToReplace() }
 */
export class ExpectationFailedError extends ServiceError {
  override name = 'ExpectationFailedError';
}
/**
 * 5xx: the service failed.
 *
 * @example
 * catch (e) { if (e instanceof ServerError) retryLater() }
 */
export class ServerError extends ServiceError {
  override name = 'ServerError';
}

const STATUS_CLASSES: Record<number, typeof ServiceError> = {
  400: ValidationError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  417: ExpectationFailedError,
};

/**
 * The request never got an answer. `message` names why as far as the platform says (a certificate not trusted,
 * expired or for another host, a refused connection, a host not found, a time-out, a dropped connection), `reason`
 * says it as a value, and `cause` is the platform's own error. Browsers give scripts no reason (`unknown`).
 *
 * @example
 * catch (e) { if (e instanceof NetworkError && e.reason === 'certificate') showTrustHelp() }
 */
export class NetworkError extends BasekitError {
  override name = 'NetworkError';
  /** Why there was no answer; `unknown` where the platform does not say (browsers). */
  readonly reason: NetworkFailureReason;
  constructor(message: string, options: ErrorOptions & { reason?: NetworkFailureReason } = {}) {
    super(message, options);
    this.reason = options.reason ?? 'unknown';
  }
}

/**
 * The caller aborted the request through its `AbortSignal`.
 *
 * @example
 * catch (e) { if (e instanceof AbortError) return; throw e }
 */
export class AbortError extends BasekitError {
  override name = 'AbortError';
}

/**
 * The call took longer than the client's `timeoutMs` (or the `AbortSignal.timeout` given to it) and was given up.
 * An `AbortError` too: the call was aborted, by a timer.
 *
 * @example
 * catch (e) { if (e instanceof TimeoutError) showSlowNetworkHint() }
 */
export class TimeoutError extends AbortError {
  override name = 'TimeoutError';
}

/**
 * The session could not be renewed (the refresh token expired or was logged out); log in again.
 *
 * @example
 * catch (e) { if (e instanceof SessionExpiredError) showLogin() }
 */
export class SessionExpiredError extends BasekitError {
  override name = 'SessionExpiredError';
}

/**
 * The client was created without an option the area needs (`objectStorageId`, `storageId`, `gameId`): the area's
 * calls reject with it before anything is sent. `option` names it.
 *
 * @example
 * catch (e) { if (e instanceof MissingOptionError) console.error(`set ${e.option} in createClient`) }
 */
export class MissingOptionError extends BasekitError {
  override name = 'MissingOptionError';
  constructor(
    readonly option: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * True when `body` has the service's error shape `{"code", "error"}`.
 *
 * @example
 * if (isErrorBody(await response.json())) console.log('a service error')
 */
export function isErrorBody(body: unknown): body is ErrorBody {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as ErrorBody).code === 'number' &&
    typeof (body as ErrorBody).error === 'string'
  );
}

/**
 * True when `error` is a `ServiceError`, of the given status if one is named.
 *
 * @example
 * catch (e) { if (isServiceError(e, 404)) return undefined; throw e }
 */
export function isServiceError(error: unknown, status?: number): error is ServiceError {
  return error instanceof ServiceError && (status === undefined || error.status === status);
}
