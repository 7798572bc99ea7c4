import type { UnhandledRequestCallback } from 'msw';
import { unknownOperation } from './engine-handler.js';

/**
 * An `onUnhandledRequest` for msw that explains a request under a basekit base URL that matches no operation of the
 * service (a typo in a path, the wrong method): it prints the engine's answer, which names the closest operations,
 * then does what msw's `strategy` does (`'warn'` prints msw's warning, `'error'` fails the request). Other unhandled
 * requests get msw's own message only.
 *
 * @example
 * server.listen({ onUnhandledRequest: explainUnhandled('error') });
 * await fetch('https://api.example.test/auth/user', { method: 'POST' });
 * // [basekit] POST https://api.example.test/auth/user: no such operation: POST /auth/user; the closest are
 * // POST /auth/users, GET /auth/users, POST /auth/login
 */
export function explainUnhandled(strategy: 'warn' | 'error' = 'warn'): UnhandledRequestCallback {
  return (request, print) => {
    const why = unknownOperation(request);
    if (why !== undefined) console[strategy](`[basekit] ${request.method} ${request.url}: ${why}`);
    if (strategy === 'error') print.error();
    else print.warning();
  };
}
