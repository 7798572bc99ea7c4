import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext } from './env.js';

/**
 * The one error shape of the service, `{"code": number, "error": string}`, and the catalogue of codes.
 * Database codes follow Parse; the other areas have their own ranges (see docs/errors.md).
 *
 * @example
 * const answer = await engine.fetch(request);
 * const { code } = await answer.json();
 * if (code === ErrorCode.ROUTE_NOT_FOUND) console.log('no such operation');
 */
export const ErrorCode = {
  // general
  INTERNAL: 1,
  ROUTE_NOT_FOUND: 2,
  SERVICE_DISABLED: 3,
  UNSUPPORTED_MEDIA_TYPE: 4,
  REQUEST_TOO_LARGE: 5,
  // database (Parse numbering)
  OBJECT_NOT_FOUND: 101,
  INVALID_QUERY: 102,
  INVALID_CLASS_NAME: 103,
  MISSING_OBJECT_ID: 104,
  INVALID_KEY_NAME: 105,
  INVALID_POINTER: 106,
  INVALID_JSON: 107,
  INCORRECT_TYPE: 111,
  OPERATION_FORBIDDEN: 119,
  INVALID_EMAIL: 125,
  DUPLICATE_VALUE: 137,
  VALIDATION_FAILED: 142,
  // database limits of this server (not Parse's)
  QUERY_TOO_COSTLY: 150,
  ROW_TOO_LARGE: 151,
  TOO_MANY_COLUMNS: 152,
  // projects (one server, many projects)
  PROJECT_NOT_FOUND: 160,
  PROJECT_ID_TAKEN: 161,
  DEFAULT_PROJECT: 162,
  TOO_MANY_PROJECTS: 163,
  SERVER_KEY: 164,
  // request inspector (admin API)
  REQUEST_NOT_KEPT: 170,
  INSPECTOR_OFF: 171,
  // users and authentication
  USERNAME_TAKEN: 202,
  INVALID_TOKEN: 209,
  UNKNOWN_PROJECT: 210,
  INVALID_KEY: 211,
  INVALID_CREDENTIALS: 212,
  INVALID_REFRESH_TOKEN: 213,
  USER_NOT_FOUND: 214,
  USER_INACTIVE: 215,
  UNKNOWN_CONFIRMATION: 216,
  NOT_A_GUEST: 217,
  // file storage
  INVALID_PATH: 600,
  FILE_EXISTS: 601,
  FILE_NOT_FOUND: 602,
  NOT_SAME_PARENT: 603,
  TOO_MANY_FILES: 604,
  NOT_A_FILE: 605,
  PAYLOAD_TOO_LARGE: 606,
  NOT_AN_IMAGE: 607,
  FOLDER_NOT_EMPTY: 608,
  NOT_A_FOLDER: 609,
  RANGE_NOT_SATISFIABLE: 610,
  TOO_MANY_PARTS: 611,
  RESIZE_OUT_OF_RANGE: 612,
  // transcoder
  UNKNOWN_SETTING: 700,
  TRANSCODER_UNAVAILABLE: 701,
  OPTION_NOT_ALLOWED: 702,
  TOO_MANY_JOBS: 703,
  TOO_MANY_SETTINGS: 704,
  // leaderboards
  UNKNOWN_EVENT: 800,
  UNKNOWN_FIELD: 801,
  INVALID_EVENT_VALUE: 802,
  UNKNOWN_LEADERBOARD: 803,
  // the data folder (--data-dir)
  STORAGE_FULL: 30,
  STORAGE_FAILED: 31,
  // reaching the server from a browser, the admin API, the clock (docs/reliability.md#a-hostile-page-dns-rebinding)
  HOST_NOT_ALLOWED: 20,
  BUILT_IN_KEY_REFUSED: 21,
  MASTER_KEY_TAKEN: 22,
  CLOCK_OUT_OF_RANGE: 23,
  // faults and named snapshots (admin API)
  FAULT_INJECTED: 40,
  FAULT_NOT_FOUND: 41,
  TOO_MANY_FAULTS: 42,
  SNAPSHOT_NOT_FOUND: 43,
  TOO_MANY_SNAPSHOTS: 44,
  // database tables (admin API)
  TABLE_NOT_FOUND: 50,
  COLUMN_NOT_FOUND: 51,
  COLUMN_EXISTS: 52,
  IMPORT_ROW_REFUSED: 53,
} as const;

/**
 * One code of the catalogue: the `code` of an error answer.
 *
 * @example
 * const code: ErrorCodeValue = ErrorCode.ROUTE_NOT_FOUND; // 2
 */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** An error the engine answers with; thrown anywhere inside a route and turned into a response. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCodeValue,
    message: string,
  ) {
    super(message);
  }

  /** The error's answer body, `{"code", "error"}`. */
  toJSON(): { code: number; error: string } {
    return { code: this.code, error: this.message };
  }
}

/**
 * A change the server could not keep (the data folder's disk is full, or failed): answered 507, and the change is not
 * made. The platform's storage capabilities (`Journal`, `BlobStore`, `Persistence`) reject with it.
 *
 * @example
 * // In a platform's Journal: a write that found no room.
 * if (error.code === 'ENOSPC') throw new StorageError(true, error.message);
 */
export class StorageError extends ApiError {
  override name = 'StorageError';

  /** @param full true when the disk has no room left (ENOSPC, a quota), false for any other failure to write */
  constructor(
    readonly full: boolean,
    cause: string,
  ) {
    super(
      507,
      full ? ErrorCode.STORAGE_FULL : ErrorCode.STORAGE_FAILED,
      full
        ? `the server's disk is full (${cause}): this change was not kept and nothing changed; reads still work, and changes are taken again once there is room`
        : `the server could not write to its data folder (${cause}): this change was not kept and nothing changed`,
    );
  }
}

export const badRequest = (code: ErrorCodeValue, message: string) => new ApiError(400, code, message);
export const unauthorized = (message: string) => new ApiError(401, ErrorCode.INVALID_TOKEN, message);
export const forbidden = (message: string) => new ApiError(403, ErrorCode.OPERATION_FORBIDDEN, message);
export const notFound = (code: ErrorCodeValue, message: string) => new ApiError(404, code, message);

/** The errors responses were made of (`errorResponse`), so that the request inspector can show their body unread. */
const answeredErrors = new WeakMap<Response, ApiError>();

/**
 * Renders an error as the service's JSON error body; given the request's context, through its `c.json`, as every
 * other JSON answer (the platform's Response: see `Capabilities.jsonResponse`).
 */
export function errorResponse(error: ApiError, c?: AppContext, headers?: Record<string, string>): Response {
  const response = c
    ? c.json(error.toJSON(), error.status as ContentfulStatusCode, headers)
    : Response.json(error.toJSON(), { status: error.status, headers });
  answeredErrors.set(response, error);
  return response;
}

/** The error a response of `errorResponse` carries, if it is one. */
export const answeredError = (response: Response): ApiError | undefined => answeredErrors.get(response);
