import type { OutgoingHttpHeaders } from 'node:http';
import type { JsonResponseInit } from '@basekit/engine';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

/**
 * The engine's JSON answers in Node (its `jsonResponse` capability): a Response that keeps its text, status and
 * headers as given, so that `writeJsonAnswer` hands them to Node as they are. A standard Response builds a body
 * stream at once, which the transport then reads back chunk by chunk: most of what a small answer costs beyond Node's
 * own HTTP work (measured: about 9 µs of 33 for a bare hello-world). Anything that needs more than the status and the
 * headers (the body, its readers, `clone`) gets a standard Response made on first use, which answers from then on.
 *
 * The same lazy pattern as `@hono/node-server`'s Response, which is not exported and comes only with replacing the
 * global `Response` (that breaks every fetch client in the process, tests included).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below declares what the loops after it define.
export class JsonResponse {
  readonly #text: string;
  readonly #init: JsonResponseInit;
  #headers: Headers | undefined;
  #standard: Response | undefined;

  constructor(text: string, { status, headers }: JsonResponseInit) {
    this.#text = text;
    // Known at once, so that a HEAD answer made of this one carries it too.
    this.#init = { status, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(text)) } };
  }

  get status(): number {
    return this.#init.status;
  }

  get ok(): boolean {
    return this.#init.status >= 200 && this.#init.status < 300;
  }

  /**
   * A Response made with `new Response(...)` is of type `"default"`: answered without making the standard one, which
   * the server asks of every answer (a fault's `Response.error()` is the one of type `"error"`). Made for this, it
   * built a body stream per answer and sent every JSON answer through the adaptor's stream writing.
   */
  get type(): ResponseType {
    return 'default';
  }

  /** Live headers: a middleware's changes (CORS) reach the answer. */
  get headers(): Headers {
    return (this.#headers ??= new Headers(this.#init.headers));
  }

  /** The standard Response this one stands for, made on first use. */
  standard(): Response {
    return (this.#standard ??= new Response(this.#text, { status: this.#init.status, headers: this.headers }));
  }

  /** Writes the answer to `outgoing` unless a standard Response was asked for (then its body may be in use). */
  writeTo(outgoing: NodeAnswer): boolean {
    if (this.#standard) return false;
    outgoing.writeHead(this.#init.status, this.#headers ? headersRecord(this.#headers) : this.#init.headers);
    outgoing.end(this.#text);
    return true;
  }
}

// What the loops below put on the prototype, and the rest of Response's members: to its readers it is a Response.
export interface JsonResponse extends Response {}

for (const key of ['body', 'bodyUsed', 'redirected', 'statusText', 'url'] as const) {
  Object.defineProperty(JsonResponse.prototype, key, {
    get(this: JsonResponse) {
      return this.standard()[key];
    },
  });
}
for (const key of ['arrayBuffer', 'blob', 'bytes', 'clone', 'formData', 'json', 'text'] as const) {
  Object.defineProperty(JsonResponse.prototype, key, {
    value(this: JsonResponse) {
      const response = this.standard();
      return (response[key] as () => unknown).call(response);
    },
  });
}
// `instanceof Response` holds, as Hono (its HEAD and CORS handling) and tests check.
Object.setPrototypeOf(JsonResponse.prototype, Response.prototype);

/** What `writeTo` needs of Node's answer (HTTP/1's `ServerResponse` or HTTP/2's), and how it is dropped unanswered. */
interface NodeAnswer {
  writeHead(status: number, headers: OutgoingHttpHeaders): unknown;
  end(text: string): unknown;
  /** HTTP/1: destroys the socket. */
  destroy?(): unknown;
  /** HTTP/2: the request's own stream, closed instead (the connection carries other requests). */
  stream?: { close(code?: number): unknown };
}

/** NGHTTP2_INTERNAL_ERROR: the stream is reset, as a connection dropped halfway resets an HTTP/1 request. */
const HTTP2_INTERNAL_ERROR = 2;

/**
 * Answers the engine's `Response.error()` (a fault's `network: "reset"`) as the web means it: no answer at all. The
 * client sees the connection reset (HTTP/2: its stream), as with a server that crashed or a network that failed.
 */
export function dropConnection(outgoing: NodeAnswer): Response {
  if (outgoing.stream) outgoing.stream.close(HTTP2_INTERNAL_ERROR);
  else outgoing.destroy?.();
  return RESPONSE_ALREADY_SENT;
}

function headersRecord(headers: Headers): OutgoingHttpHeaders {
  const record: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (name !== 'set-cookie') record[name] = value;
  });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) record['set-cookie'] = cookies;
  return record;
}

/** The engine's `jsonResponse` capability in Node. */
export const jsonResponse = (text: string, init: JsonResponseInit): Response => new JsonResponse(text, init);

/**
 * For `@hono/node-server`'s fetch callback: writes a `JsonResponse` to Node's answer at once and tells the adaptor so;
 * any other Response is handed back for the adaptor to write.
 */
export const writeJsonAnswer = (response: Response, outgoing: NodeAnswer): Response =>
  response instanceof JsonResponse && response.writeTo(outgoing) ? RESPONSE_ALREADY_SENT : response;
