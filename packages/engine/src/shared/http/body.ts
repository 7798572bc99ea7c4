import type { ByteSearch } from '../capabilities.js';
import type { AppContext, BodyLimitKey } from '../env.js';
import { ApiError, ErrorCode, badRequest } from '../errors.js';
import { readUpTo } from '../util/bytes.js';
import type { BodyChunks } from './multipart.js';
import { boundaryOf } from './multipart-head.js';
import { loadOnce } from '../util/load-once.js';

/** Deeper bodies are refused before any area sees them (areas have stricter limits of their own, with their own codes). */
const MAX_JSON_DEPTH = 512;

/**
 * Refuses `__proto__` keys (copied into an object they can change its prototype) and bodies nested deeper than
 * MAX_JSON_DEPTH. Iterative, so no body can exhaust the stack here.
 */
function checkParsed(root: unknown): void {
  const pending: [unknown, number][] = [[root, 1]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [value, depth] = item;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_JSON_DEPTH)
      throw badRequest(ErrorCode.INVALID_JSON, `request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    for (const [key, child] of Object.entries(value)) {
      if (key === '__proto__') throw badRequest(ErrorCode.INVALID_KEY_NAME, 'the key "__proto__" is not allowed');
      pending.push([child, depth + 1]);
    }
  }
}

/** The largest body the request's route takes: its declared `bodyLimit` (`changes`), else `maxJsonBodyBytes`. */
export function bodyLimitOf(c: AppContext): { key: BodyLimitKey; bytes: number } {
  const key = c.get('bodyLimit') ?? 'maxJsonBodyBytes';
  return { key, bytes: c.env.project.config[key] };
}

const tooLarge = ({ key, bytes }: { key: BodyLimitKey; bytes: number }) =>
  new ApiError(413, ErrorCode.REQUEST_TOO_LARGE, `request body is larger than ${bytes} bytes (${key})`);

/**
 * The request body's bytes, refused with 413 (code 5) as soon as they pass the route's limit (`bodyLimitOf`): at once
 * when Content-Length declares more, otherwise while the body streams in, so no more than the limit is ever held in
 * memory. A body whose declared length is within the limit is read whole: the HTTP parser passes no more than that
 * length on (in Node, `@hono/node-server` then reads the socket without building a web stream and a full Request,
 * about 10 µs a request).
 */
async function readBody(c: AppContext): Promise<Uint8Array<ArrayBuffer>> {
  const limit = bodyLimitOf(c);
  const declared = declaredLength(c.req.raw);
  if (declared !== undefined && declared > limit.bytes) throw tooLarge(limit);
  const bytes =
    readAhead.get(c.req.raw) ??
    (declared !== undefined
      ? new Uint8Array(await c.req.raw.arrayBuffer().catch(unreadable))
      : await readStreamed(c.req.raw.body, limit));
  // A platform that passed on more than it declared (a mocked request) is still held to the limit.
  if (bytes.byteLength > limit.bytes) throw tooLarge(limit);
  c.set('requestBody', bytes);
  return bytes;
}

/** Bodies read before the routes, by request: the journal reads a recorded request's body to keep it. */
const readAhead = new WeakMap<Request, Uint8Array<ArrayBuffer>>();

/**
 * Hands `request` on with its body read already: the routes take `bytes` instead (`readBody`, `bodyChunks`). Cheaper
 * than a new Request with the bytes as its body, which builds a stream (measured: about 20 µs a recorded request).
 */
export function withBodyRead(request: Request, bytes: Uint8Array<ArrayBuffer>): Request {
  readAhead.set(request, bytes);
  return request;
}

/**
 * The request body chunk by chunk, for the routes that stream it (uploads): the platform's own chunks where it gives
 * them (`requestBody`: no web stream in between), else those of the body stream; null when there is no body.
 */
export function bodyChunks(c: AppContext): BodyChunks | null {
  const bytes = readAhead.get(c.req.raw);
  if (bytes) return chunksOf(bytes);
  const own = c.env.project.capabilities.requestBody?.(c.req.raw);
  if (own) return own[Symbol.asyncIterator]();
  const reader = c.req.raw.body?.getReader();
  return reader ? { next: () => reader.read() as Promise<IteratorResult<Uint8Array>> } : null;
}

/** Bytes at hand as the chunks of a body: one chunk (a plain iterator: an async generator costs more for one). */
function chunksOf(bytes: Uint8Array): BodyChunks {
  let done = false;
  return {
    next: async () => {
      if (done) return { done: true, value: undefined };
      done = true;
      return { done: false, value: bytes };
    },
  };
}

/** The request's Content-Length when it declares one (digits only: anything else is read as undeclared). */
export function declaredLength(request: Request): number | undefined {
  const declared = request.headers.get('content-length');
  return declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
}

const unreadable = (): never => {
  throw badRequest(ErrorCode.INVALID_JSON, 'the request body could not be read to its end');
};

/** A body of undeclared length, read until it ends or passes `limit`. */
async function readStreamed(
  body: ReadableStream<Uint8Array> | null,
  limit: { key: BodyLimitKey; bytes: number },
): Promise<Uint8Array<ArrayBuffer>> {
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const read = await readUpTo(reader, limit.bytes).catch(unreadable);
  if ('bytes' in read) return read.bytes;
  void reader.cancel().catch(() => undefined);
  throw tooLarge(limit);
}

/** The request body parsed as JSON (400, code 107 when it is not; 413 past the body limit); `__proto__` keys and very deep nesting are refused. */
async function readJson(c: AppContext): Promise<unknown> {
  const text = new TextDecoder().decode(await readBody(c));
  if (text.trim() === '') return undefined;
  let body: unknown;
  try {
    // No reviver: with one, V8 parses recursively and a deeply nested body overflows the stack.
    body = JSON.parse(text);
  } catch (error) {
    throw badRequest(ErrorCode.INVALID_JSON, `request body is not valid JSON: ${(error as Error).message}`);
  }
  checkParsed(body);
  return body;
}

/**
 * The request body as form data (multipart or URL-encoded) within the body limit; 400 when it is not a valid form.
 * Multipart bodies go through the engine's own parser, as uploads do: only a line break, "--" and the boundary end a
 * part, so the boundary's text inside a value is data (Node 20's `Response#formData` refused such bodies).
 */
export async function readForm(c: AppContext): Promise<FormData> {
  const bytes = await readBody(c);
  const type = c.req.header('content-type') ?? '';
  let form: FormData;
  try {
    form = /^multipart\/form-data/i.test(type)
      ? await multipartForm(bytes, type, c.env.project.capabilities.byteSearch)
      : await new Response(bytes, { headers: { 'content-type': type } }).formData();
  } catch (error) {
    const problem = error instanceof ApiError ? `: ${error.message}` : '';
    throw badRequest(ErrorCode.VALIDATION_FAILED, `request body is not a valid form${problem}`);
  }
  c.set('requestForm', form);
  return form;
}

/**
 * The multipart parser, loaded with the first multipart body: an app's page under msw that never uploads nor logs in
 * with a form never fetches it.
 */
export const multipartParser = loadOnce(() => import('./multipart.js'));

/** A multipart body read whole as FormData: text parts as strings, parts with a file name as files. */
async function multipartForm(bytes: Uint8Array, contentType: string, search?: ByteSearch): Promise<FormData> {
  // The body is within its limit already: no other limit needed, a part costs at least its bytes.
  const limits = { bytes: bytes.byteLength, parts: Number.POSITIVE_INFINITY, fieldBytes: bytes.byteLength };
  const { readMultipart } = await multipartParser();
  const parts = await readMultipart(chunksOf(bytes), boundaryOf(contentType), limits, () => undefined, search);
  const form = new FormData();
  for (const { name, filename, contentType: type, data = new Uint8Array(0) } of parts) {
    if (filename === undefined) form.append(name, decoder.decode(data));
    else form.append(name, new Blob([data as Uint8Array<ArrayBuffer>], type ? { type } : {}), filename);
  }
  return form;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The size of a value as JSON text, in bytes (UTF-8): what stored rows and user fields are measured by. */
export const jsonBytes = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request body as a JSON object; an empty body counts as `{}` when `emptyAllowed`. */
export async function readJsonObject(
  c: AppContext,
  { emptyAllowed = false }: { emptyAllowed?: boolean } = {},
): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (body === undefined && emptyAllowed) return {};
  if (!isPlainObject(body)) throw badRequest(ErrorCode.INVALID_JSON, 'request body must be a JSON object');
  return body;
}

/** A query parameter as a whole number within bounds, or `fallback` when absent. */
export function intParam(
  c: AppContext,
  name: string,
  { min, max, fallback }: { min: number; max: number; fallback?: number },
): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') {
    if (fallback !== undefined) return fallback;
    throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" is required`);
  }
  if (!/^-?\d+$/.test(raw))
    throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" must be an integer`);
  const value = Number(raw);
  if (value < min || value > max)
    throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" must be between ${min} and ${max}`);
  return value;
}
