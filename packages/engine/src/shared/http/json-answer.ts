import type { Context } from 'hono';
import type { JsonResponseInit } from '../capabilities.js';
import type { AppContext, AppEnv } from '../env.js';

const standardResponse = (text: string, init: JsonResponseInit) => new Response(text, init);

/**
 * The engine's `c.json`: the platform's `jsonResponse` makes the Response, and the text answered is kept on the
 * context (`responseJson`) for the request inspector, with no second serialization. Hono's own `c.json` would build
 * a standard Response whatever the platform, and routes never set headers before it (`c.header`), so nothing of
 * Hono's is skipped. One function for every request, called as `c.json(...)`: a closure made per request costs the
 * routes' calls their fast path (measured: several microseconds a request).
 */
function jsonAnswer(
  this: AppContext,
  object: unknown,
  arg?: number | ResponseInit,
  headers?: Record<string, string>,
): Response {
  const text = JSON.stringify(object);
  this.set('responseJson', text);
  const status = typeof arg === 'number' ? arg : (arg?.status ?? 200);
  const init = {
    status,
    headers: {
      'Content-Type': 'application/json',
      ...(typeof arg === 'object' && Object.fromEntries(new Headers(arg.headers))),
      ...headers,
    },
  };
  return (this.env.project.capabilities.jsonResponse ?? standardResponse)(text, init);
}

/** Makes the route's `c.json` the engine's `jsonAnswer`; done first for every request of the engine's app. */
export function answerJson(c: Context<AppEnv>): void {
  (c as unknown as { json: typeof jsonAnswer }).json = jsonAnswer;
}
