import createFetchClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../generated/schema.js';
import { AbortError, BasekitError, NetworkError, ServiceError, TimeoutError } from './errors.js';
import { renameServiceHeaders } from './header-word.js';
// Through package.json's `imports`: bundles for browsers get the variant without Node's error codes (`browser`).
import { describeNetworkFailure } from '#network-failure';
import type { ClientOptions, KnownOptions } from './options.js';
import { SessionManager, type TokenResponse } from './session.js';
import { formData } from './form.js';
import { memoryTokenStore } from './token-store.js';

/**
 * The typed openapi-fetch client of the whole contract.
 *
 * @example
 * const http: HttpClient = client.core.http(client.core.options.baseUrl);
 * const { data } = await http.GET('/auth/users/me');
 */
export type HttpClient = Client<paths>;

/**
 * What every area client is built on: the options (of type `O`, with every URL), the session and the transport.
 *
 * @example
 * const core: Core = createCore({ baseUrl, authenticationId, clientKey });
 * const session = await core.session.current();
 */
export interface Core<O extends ClientOptions = ClientOptions> {
  readonly options: O & { storageUrl: string; transcoderUrl: string };
  readonly session: SessionManager;
  /** fetch with the SDK's error mapping: `NetworkError`, `AbortError`, `ServiceError`. */
  send(operation: string, request: Request): Promise<Response>;
  /** An openapi-fetch client for one address that sends `headers` and, when `authorize`, the session's token. */
  http(baseUrl: string, headers?: Record<string, string>, authorize?: boolean): HttpClient;
  /**
   * Awaits a call of an `http` client and returns its data. Its errors are already the SDK's: a `ServiceError`
   * named after the operation (`PUT /auth/users/me`), a `NetworkError`, an `AbortError`.
   */
  call<T>(pending: Promise<{ data?: T; response: Response }>): Promise<T>;
}

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';
const isTimeout = (error: unknown) => error instanceof Error && error.name === 'TimeoutError';

function transportError(operation: string, error: unknown, url?: string): BasekitError {
  if (error instanceof BasekitError) return error;
  if (isTimeout(error)) return new TimeoutError(`${operation} timed out`, { cause: error });
  if (isAbort(error)) return new AbortError(`${operation} was aborted`, { cause: error });
  const { reason, text } = describeNetworkFailure(error);
  const to = url ? ` to ${new URL(url).origin}` : '';
  return new NetworkError(`${operation}${to} failed: ${text}`, { cause: error, reason });
}

async function readBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** Turns failures into the SDK's errors, named after the operation of the contract (`PUT /auth/users/me`). */
const errorMiddleware: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    if (response.ok) return undefined;
    const operation = `${request.method} ${schemaPath}`;
    throw ServiceError.from(response.status, await readBody(response), {
      operation,
      method: request.method,
      url: request.url,
    });
  },
  onError: ({ request, schemaPath, error }) => transportError(`${request.method} ${schemaPath}`, error, request.url),
};

/**
 * What a client of the contract sends its requests with: see `ClientOptions`.
 *
 * @example
 * const transport: TransportOptions = { fetch: myFetch, headerWord: 'Backtory', timeoutMs: 10_000 };
 * const http = createHttpClient(baseUrl, headers, transport);
 */
export type TransportOptions = Pick<ClientOptions, 'fetch' | 'headerWord' | 'timeoutMs'>;

// Node's fetch follows a copied Request's signal through weak references (nodejs/undici#4068): a garbage collection
// during a call could lose its timeout or its caller's abort. So each signal below is held by a timer or a listener,
// each request made from another keeps that one alive (`madeFrom`), and a request is kept until fetch settles.
const madeFrom = new WeakMap<Request, Request>();

/** `request` with a signal that also aborts it after `timeoutMs`, if given, with a `TimeoutError`. */
function withTimeout(request: Request, timeoutMs: number | undefined): Request {
  if (timeoutMs === undefined) return request;
  const controller = new AbortController();
  const abort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) abort();
  else request.signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), timeoutMs);
  // In Node the timer alone does not keep the process running (browsers give a number, without `unref`).
  (timer as { unref?: () => void }).unref?.();
  // `duplex` is required by fetch for a streamed body; the DOM typings do not know it yet.
  const timed = new Request(request, { signal: controller.signal, duplex: 'half' } as RequestInit);
  madeFrom.set(timed, request);
  return timed;
}

/** The fetch of the options; `globalThis.fetch` read at call time, since msw (or a test) may replace it later. */
const fetchOf =
  ({ fetch }: TransportOptions) =>
  (request: Request): Promise<Response> =>
    (fetch ?? globalThis.fetch)(request).finally(() => request);

/**
 * An openapi-fetch client of the contract at `baseUrl` that sends `headers` (in the options' header word) and fails
 * with the SDK's errors: a `ServiceError` named after the operation, a `NetworkError`, an `AbortError`. Every area's
 * client is one (with the session added, `Core.http`), and so is the admin client.
 *
 * @example
 * const http = createHttpClient('http://localhost:3000', { 'X-Service-Authentication-Key': masterKey });
 * const config = await dataOf(http.GET('/__admin/config'));
 */
export function createHttpClient(baseUrl: string, headers: Record<string, string>, options: TransportOptions = {}) {
  const client: HttpClient = createFetchClient<paths>({ baseUrl, headers, fetch: fetchOf(options) });
  const { headerWord, timeoutMs } = options;
  if (headerWord) client.use({ onRequest: ({ request }) => renameServiceHeaders(request.headers, headerWord) });
  if (timeoutMs !== undefined) client.use({ onRequest: ({ request }) => withTimeout(request, timeoutMs) });
  client.use(errorMiddleware);
  return client;
}

/**
 * Awaits a call of a `createHttpClient` client and returns its data; its errors are already the SDK's.
 *
 * @example
 * const tables = await dataOf(http.GET('/__admin/database/tables'));
 */
export async function dataOf<Answer extends { data?: unknown; response: Response }>(
  pending: Promise<Answer>,
): Promise<Exclude<Answer['data'], undefined>> {
  try {
    return (await pending).data as Exclude<Answer['data'], undefined>;
  } catch (error) {
    throw transportError('request', error);
  }
}

/** Adds the session's Authorization to each request, and after a 401 renews once and replays the request. */
function sessionMiddleware(core: Core, send: (request: Request) => Promise<Response>): Middleware {
  // The body of a sent request is consumed: keep a clone to replay, and the token it went with.
  const sent = new WeakMap<Request, { replay: Request; accessToken: string }>();
  return {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return undefined;
      const session = await core.session.fresh();
      if (!session) return undefined;
      request.headers.set('authorization', SessionManager.authorization(session));
      sent.set(request, { replay: request.clone(), accessToken: session.accessToken });
      return request;
    },
    async onResponse({ request, response }) {
      const original = sent.get(request);
      if (response.status !== 401 || !original) return undefined;
      const session = await core.session.renewedAfter(original.accessToken);
      if (!session) return undefined;
      original.replay.headers.set('authorization', SessionManager.authorization(session));
      return send(original.replay);
    },
  };
}

/**
 * Creates the shared core of a client. Area clients (`createAuth`, `createDb`, ...) take it, so an app that
 * imports one area bundles only that area.
 *
 * @example
 * const core = createCore({ baseUrl: 'http://localhost:3000', authenticationId: 'dev-auth-id', clientKey: 'dev-client-key' });
 * const auth = createAuth(core);
 */
export function createCore<O extends ClientOptions>(options: O & KnownOptions<O>): Core<NoInfer<O>> {
  const resolved = {
    ...options,
    storageUrl: options.storageUrl ?? options.baseUrl,
    transcoderUrl: options.transcoderUrl ?? options.baseUrl,
  };
  const rawFetch = fetchOf(options);

  const core: Core<O> = {
    options: resolved,
    session: new SessionManager(options.tokenStore ?? memoryTokenStore(), (refreshToken) => renew(core, refreshToken)),
    async send(operation, request) {
      let response: Response;
      try {
        response = await rawFetch(withTimeout(request, options.timeoutMs));
      } catch (error) {
        throw transportError(operation, error, request.url);
      }
      if (!response.ok && response.status !== 304) {
        throw ServiceError.from(response.status, await readBody(response), {
          operation,
          method: request.method,
          url: request.url,
        });
      }
      return response;
    },
    http(baseUrl, headers = {}, authorize = true) {
      const client = createHttpClient(baseUrl, headers, options);
      // Last: onResponse runs in reverse order, so the session replays a 401 before the error is raised, and its
      // replay copy carries the renamed headers and the timeout's signal.
      if (authorize) client.use(sessionMiddleware(core, rawFetch));
      return client;
    },
    call: dataOf,
  };
  return core;
}

/** Renewal (the contract's `login`): the client key, the refresh flag and the refresh token as a form field. */
async function renew(core: Core, refreshToken: string): Promise<TokenResponse> {
  const { baseUrl, authenticationId, clientKey } = core.options;
  const headers = {
    'X-Service-Authentication-Id': authenticationId,
    'X-Service-Authentication-Key': clientKey,
    'X-Service-Authentication-Refresh': '1',
  };
  const open = core.http(baseUrl, headers, false);
  return core.call(
    open.POST('/auth/login', { body: { refresh_token: refreshToken } as never, bodySerializer: formData as never }),
  );
}
