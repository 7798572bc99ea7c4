import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

/** Where the server's request carries its raw header list (names and values in turn, as Node parsed them). */
const RAW_HEADERS = Symbol('rawHeaders');

type WithRawHeaders = Request & { [RAW_HEADERS]?: string[] };

/** Keeps the raw header list of `incoming` on the Request the server made of it, for `inspectedHeaders`. */
export function keepRawHeaders(request: Request, incoming: IncomingMessage | Http2ServerRequest): void {
  (request as WithRawHeaders)[RAW_HEADERS] = incoming.rawHeaders;
}

/**
 * The engine's `inspectedHeaders` capability in Node: the headers of a request the server made, kept as Node's raw
 * list alone. The Request's own headers (`@hono/node-server`'s) read through Node's `IncomingMessage`, so keeping
 * them kept the whole `IncomingMessage` (its stream state, its header object) for as long as the request inspector
 * keeps the request, which the young generation's collections then copied and promoted: measured, about 6 µs of a
 * get-by-id's CPU. Undefined for any other Request (one the engine made, e.g. under another header word).
 */
export function inspectedHeaders(request: Request): Headers | undefined {
  const raw = (request as WithRawHeaders)[RAW_HEADERS];
  return raw && (new KeptHeaders(raw) as unknown as Headers);
}

/**
 * Headers kept as a raw list, made into standard `Headers` when first read (the request inspector reads few of the
 * requests it keeps): the same entries as the Request's own, which `@hono/node-server` makes of the same list so.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below declares what the loop after it defines.
class KeptHeaders {
  #raw: string[] | undefined;
  #standard: Headers | undefined;

  constructor(raw: string[]) {
    this.#raw = raw;
  }

  standard(): Headers {
    if (!this.#standard) {
      this.#standard = new Headers();
      const raw = this.#raw!;
      // HTTP/2's pseudo-headers (`:path`, …) are no headers of the Request.
      for (let i = 0; i < raw.length; i += 2) if (!raw[i]!.startsWith(':')) this.#standard.append(raw[i]!, raw[i + 1]!);
      this.#raw = undefined;
    }
    return this.#standard;
  }
}

interface KeptHeaders extends Headers {}

for (const key of [
  'append',
  'delete',
  'entries',
  'forEach',
  'get',
  'getSetCookie',
  'has',
  'keys',
  'set',
  'values',
] as const)
  Object.defineProperty(KeptHeaders.prototype, key, {
    value(this: KeptHeaders, ...args: unknown[]) {
      const headers = this.standard();
      return (headers[key] as (...args: unknown[]) => unknown).apply(headers, args);
    },
  });
Object.defineProperty(KeptHeaders.prototype, Symbol.iterator, {
  value(this: KeptHeaders) {
    return this.standard().entries();
  },
});
Object.setPrototypeOf(KeptHeaders.prototype, Headers.prototype);
