import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../shared/env.js';
import { ApiError, answeredError } from '../shared/errors.js';
import { sameSecret } from '../shared/auth/secrets.js';
import type { Exchange } from './exchange.js';

/**
 * Called with every request the engine answered (see `Engine.onExchange`).
 *
 * @example
 * const listener: ExchangeListener = (exchange) => log.push(exchange.summary());
 * const stop = engine.onExchange(listener);
 */
export type ExchangeListener = (exchange: Exchange) => void;

/** The inspector's own API is not recorded: reading the list would otherwise fill it. */
export const INSPECTOR_PATH = '/__admin/requests';

/**
 * The middleware that records each answered request for the project's inspector (when its `inspectorLimit` is not 0)
 * and for `listeners`. It takes references and numbers only; bodies are kept only as the route already held them in
 * memory (the JSON it answered, the body it read), and only up to `inspectorBodyBytes`: a streamed upload or download
 * is never read for it. With nothing to record to, it costs one check; the exchange and inspector code loads with the
 * first request recorded (msw records nothing unless asked, so a browser app never loads it).
 */
export function recordExchanges(
  listeners: ReadonlySet<ExchangeListener>,
  onListenerError: (error: unknown) => void,
): MiddlewareHandler<AppEnv> {
  let seq = 0;
  let recording: Recording | undefined;
  return async (c, next) => {
    const { project } = c.env;
    const { inspectorLimit, inspectorBodyBytes: bodyLimit } = project.config;
    if ((inspectorLimit === 0 && listeners.size === 0) || c.req.path.startsWith(INSPECTOR_PATH)) return next();
    const startedAt = performance.now();
    await next();
    const durationMs = performance.now() - startedAt;
    recording ??= await loadRecording();
    const { Exchange, inspectorOf } = recording;
    const { res } = c;
    const principal = c.get('principal');
    const body = c.get('requestBody');
    const bodySize = body?.byteLength;
    // A thrown ApiError (Hono keeps it), or one a response was made of without throwing (no such route, a bad range).
    // (A response's identity hash, which the lookup needs, is not made for the successful majority.)
    const error = c.error instanceof ApiError ? c.error : res.status >= 400 ? answeredError(res) : undefined;
    const responseJson = error ? JSON.stringify(error) : c.get('responseJson');
    const exchange = new Exchange({
      seq: ++seq,
      startedAt,
      durationMs,
      method: c.req.method,
      url: c.req.url,
      // After `next`, the route that answered (Hono leaves its index set).
      route: routePath(c),
      requestHeaders: project.capabilities.inspectedHeaders?.(c.req.raw) ?? c.req.raw.headers,
      status: res.status,
      response: answerHeaders(res),
      // Reading `body` may make the stream of a text body: only asked of answers that did not come from `c.json`.
      hasResponseBody: responseJson !== undefined || res.body !== null,
      hasRequestBody: bodySize !== undefined || hasBody(c.req.raw),
      project,
      // The caller as plain values: the principal object itself is larger than all the rest.
      userId: principal?.userId,
      master: principal
        ? principal.isMaster
        : sameSecret(c.req.raw.headers.get('x-service-authentication-key') ?? '', project.config.masterKey),
      requestBody: bodySize !== undefined && bodySize <= bodyLimit ? (c.get('requestForm') ?? body) : undefined,
      requestBodySize: bodySize,
      responseJson: responseJson !== undefined && responseJson.length <= bodyLimit ? responseJson : undefined,
      responseJsonLength: responseJson?.length,
      bodyLimit,
      fault: c.env.fault,
    });
    if (inspectorLimit > 0) inspectorOf(project).add(exchange);
    if (listeners.size > 0) notify(listeners, exchange, onListenerError);
  };
}

type Recording = typeof import('./exchange.js') & typeof import('./inspector.js');

const loadRecording = async (): Promise<Recording> => {
  const [exchange, inspector] = await Promise.all([import('./exchange.js'), import('./inspector.js')]);
  return { ...exchange, ...inspector };
};

/**
 * What an exchange keeps of the answer, for its headers. A Response of the standard class is let go: it holds its
 * body's stream and more, which the inspector would keep for its last `inspectorLimit` requests and a listener for as
 * long as it keeps the exchange (measured in one process: 10–17 µs of a get-by-id's 90, most of it in the collector).
 * A platform's own answer (the Node server's JSON answers, which make their headers only when read) is kept whole, so
 * that its headers are made only for the requests someone looks at.
 */
function answerHeaders(res: Response): Pick<Response, 'headers'> {
  return res.constructor === Response ? { headers: res.headers } : res;
}

/**
 * Whether a request the route did not read has a body, from what is at hand first: GET and HEAD have none, a length
 * or a transfer coding says there is one. Only a request without either asks for its body stream, which in Node's
 * adaptor makes the whole standard Request (measured: most of 0.15 ms a request).
 */
function hasBody(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const { headers } = request;
  return headers.has('content-length') || headers.has('transfer-encoding') || request.body !== null;
}

/** Hands an exchange to each listener; one that throws is reported and does not stop the others or the answer. */
function notify(
  listeners: ReadonlySet<ExchangeListener>,
  exchange: Exchange,
  onListenerError: (error: unknown) => void,
): void {
  for (const listener of listeners) {
    try {
      listener(exchange);
    } catch (listenerError) {
      onListenerError(listenerError);
    }
  }
}
