import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../shared/env.js';
import { ApiError, answeredError } from '../shared/errors.js';
import { Exchange } from './exchange.js';
import { inspectorOf } from './inspector.js';

/** Called with every request the engine answered (see `Engine.onExchange`). */
export type ExchangeListener = (exchange: Exchange) => void;

/** The inspector's own API is not recorded: reading the list would otherwise fill it. */
export const INSPECTOR_PATH = '/__admin/requests';

type JsonAnswer = (object: unknown, arg?: unknown, headers?: Record<string, string | string[]>) => Response;

/**
 * The middleware that records each answered request for the project's inspector (when its `inspectorLimit` is not 0)
 * and for `listeners`. It takes references and numbers only; bodies are kept only as the route already held them in
 * memory (the JSON it answered, the body it read), and only up to `inspectorBodyBytes`: a streamed upload or download
 * is never read for it. With nothing to record to, it costs one check.
 */
export function recordExchanges(listeners: ReadonlySet<ExchangeListener>, onListenerError: (error: unknown) => void): MiddlewareHandler<AppEnv> {
  let seq = 0;
  return async (c, next) => {
    const { project } = c.env;
    const { inspectorLimit, inspectorBodyBytes: bodyLimit } = project.config;
    if ((inspectorLimit === 0 && listeners.size === 0) || c.req.path.startsWith(INSPECTOR_PATH)) return next();
    const startedAt = performance.now();
    let responseJson: string | undefined;
    let responseJsonLength: number | undefined;
    // Hono's own `c.json`, keeping the text it answers: no second serialization, no copy of the response.
    (c as unknown as { json: JsonAnswer }).json = (object, arg, headers) => {
      const text = JSON.stringify(object);
      responseJsonLength = text.length;
      if (text.length <= bodyLimit) responseJson = text;
      return c.body(text, arg as 200, { 'Content-Type': 'application/json', ...headers });
    };
    await next();
    const { res } = c;
    const principal = c.get('principal');
    const body = c.get('requestBody');
    const bodySize = body?.byteLength;
    // A thrown ApiError (Hono keeps it), or one a response was made of without throwing (no such route, a bad range).
    const error = c.error instanceof ApiError ? c.error : answeredError(res);
    if (error) {
      responseJson = JSON.stringify(error);
      responseJsonLength = responseJson.length;
    }
    const exchange = new Exchange({
      seq: ++seq,
      startedAt,
      durationMs: performance.now() - startedAt,
      method: c.req.method,
      url: c.req.url,
      requestHeaders: c.req.raw.headers,
      status: res.status,
      responseHeaders: res.headers,
      // Reading `body` may make the stream of a text body: only asked of answers that did not come from `c.json`.
      hasResponseBody: responseJsonLength !== undefined || res.body !== null,
      project,
      principal,
      masterKey: !principal && c.req.raw.headers.get('x-service-authentication-key') === project.config.masterKey,
      requestBody: bodySize !== undefined && bodySize <= bodyLimit ? (c.get('requestForm') ?? body) : undefined,
      requestBodySize: bodySize,
      responseJson,
      responseJsonLength,
      bodyLimit,
    });
    if (inspectorLimit > 0) inspectorOf(project).add(exchange);
    for (const listener of listeners) {
      try {
        listener(exchange);
      } catch (listenerError) {
        onListenerError(listenerError);
      }
    }
  };
}
