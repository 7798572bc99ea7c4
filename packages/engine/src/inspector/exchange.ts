import type { ServiceName } from '../config.js';
import type { AppliedFault } from '../faults/faults.js';
import { servicePath } from '../shared/http/path.js';
import type { Project } from '../shared/project.js';
import { MASK, isSecretName, maskHeaders, maskJson, maskJsonLikeText, maskPathAndQuery, maskQuery } from './masking.js';

/**
 * Who made a request, from what the engine verified: a user's or the master's token, or the master key itself.
 *
 * @example
 * const { caller }: { caller: Caller } = exchange.summary();
 * if (caller.kind === 'user') console.log('user', caller.username ?? caller.userId);
 */
export type Caller = { kind: 'user'; userId: string; username?: string } | { kind: 'master' } | { kind: 'anonymous' };

/**
 * The part of the service a request went to: an area, the admin API, or no operation at all.
 *
 * @example
 * const area: InspectedArea = exchange.summary().area; // 'database', 'admin', …
 */
export type InspectedArea = ServiceName | 'admin' | 'other';

/**
 * A body as the inspector shows it. JSON, forms and text are kept only when small and already in memory (read by the
 * route or written by it); anything else is described by its size, when known, never read to be shown.
 *
 * @example
 * const body: BodyView = exchange.details().request.body;
 * if (body.kind === 'json') console.log(body.json);
 */
export type BodyView =
  | { kind: 'none' }
  | { kind: 'json'; size: number; json: unknown }
  | { kind: 'form'; fields: Record<string, string | { file: string; size: number; type: string }> }
  | { kind: 'text'; size: number; text: string }
  | { kind: 'omitted'; reason: 'binary' | 'large' | 'unread'; size?: number; contentType?: string };

/**
 * One answered request in a list: what the inspector's list and live stream show.
 *
 * @example
 * const { method, path, status, durationMs }: ExchangeSummary = exchange.summary();
 */
export interface ExchangeSummary {
  /** Unique within one engine's run. */
  id: string;
  /** When the request came in (ISO 8601, wall clock). */
  time: string;
  method: string;
  /** Path and query as sent, secrets masked. */
  path: string;
  status: number;
  /** Until the response (its headers) was ready; a streamed body's transfer is not counted. */
  durationMs: number;
  caller: Caller;
  area: InspectedArea;
  /** The authentication id of the project that answered. */
  project: string;
  /**
   * Set when a fault (`POST /__admin/faults`) had its way with the request: `status` and `reset` answered in place
   * of the service (the status is the fault's, 0 for a dropped connection), `delay` held the real answer back.
   */
  injected?: { faultId: string; kind: AppliedFault['kind']; delayMs?: number };
}

/**
 * One answered request in full: headers (secrets masked) and bodies.
 *
 * @example
 * const { request, response }: ExchangeDetails = exchange.details();
 * console.log(request.headers['authorization']); // masked
 */
export interface ExchangeDetails extends ExchangeSummary {
  request: { headers: Record<string, string>; body: BodyView };
  response: { headers: Record<string, string>; body: BodyView };
}

/** What a recorder takes from a request as it is answered: references and numbers only, so recording stays cheap. */
interface ExchangeFacts {
  seq: number;
  /** `performance.now()` when the request came in. */
  startedAt: number;
  durationMs: number;
  method: string;
  url: string;
  /** The path pattern of the route that answered (`/auth/confirm/:token`), whose parameters named as secrets are masked. */
  route: string;
  requestHeaders: Headers;
  status: number;
  /**
   * The answer's headers, read only when the exchange is shown: a platform's lighter Response, kept whole, makes them
   * on first read (see `answerHeaders` in `recorder.ts`).
   */
  response: Pick<Response, 'headers'>;
  hasResponseBody: boolean;
  /** The request has a body stream: in process (msw's requests, `engine.fetch`) no Content-Length or Transfer-Encoding tells. */
  hasRequestBody: boolean;
  project: Project;
  /** The user of the verified access token, if it was a user's. */
  userId: string | undefined;
  /** A verified master token, or the project's master key itself (the admin API, a master login). */
  master: boolean;
  /** The request body as the route read it (bytes, or the form it parsed them into), if it did and it is no larger than `bodyLimit`. */
  requestBody: Uint8Array | FormData | undefined;
  /** The size of the request body the route read, if it did. */
  requestBodySize: number | undefined;
  /** The JSON the route answered with, as text, when no larger than `bodyLimit`. */
  responseJson: string | undefined;
  /** The length of the JSON the route answered with, kept or not. */
  responseJsonLength: number | undefined;
  /** The largest body shown (the config's `inspectorBodyBytes` then). */
  bodyLimit: number;
  /** The fault the request got, if any. */
  fault: AppliedFault | undefined;
}

/** The header a replayed request carries: the id of the request it repeats. */
export const REPLAY_HEADER = 'x-replay-of';

/** The leading part of every id of this engine run, so that a link to a request of an earlier run finds nothing. */
const RUN = Date.now().toString(36);

/** The sequence number an id of this run stands for, or undefined. */
export function seqOfId(id: string): number | undefined {
  const match = /^([0-9a-z]+)-(\d{1,15})$/.exec(id);
  return match && match[1] === RUN ? Number(match[2]) : undefined;
}

const AREA_PREFIXES: readonly [string, InspectedArea][] = [
  ['/__admin/', 'admin'],
  ['/auth/', 'users'],
  ['/object-storage/', 'database'],
  ['/game/', 'leaderboards'],
  ['/video/', 'transcoder'],
  ['/metadata/', 'transcoder'],
  ['/files', 'storage'],
  ['/directories', 'storage'],
];

/** The area a path belongs to; any other GET is a download from the storage (`/<bucket>/<path>`). */
function areaOf(method: string, path: string): InspectedArea {
  for (const [prefix, area] of AREA_PREFIXES) if (path.startsWith(prefix) || `${path}/` === prefix) return area;
  return method === 'GET' || method === 'HEAD' ? 'storage' : 'other';
}

/** Who made the request; a user by their username too while they exist (when the request is first described). */
function callerOf({ master, userId, project }: ExchangeFacts): Caller {
  if (master) return { kind: 'master' };
  if (userId === undefined) return { kind: 'anonymous' };
  const username = project.directory.profile(userId)?.userName;
  return username === undefined ? { kind: 'user', userId } : { kind: 'user', userId, username };
}

const decoder = new TextDecoder();
const isJsonType = (type: string) => /^application\/([\w.+-]+\+)?json\b/i.test(type);
const isTextType = (type: string) => /^text\//i.test(type);
const isUrlEncodedType = (type: string) => /^application\/x-www-form-urlencoded\b/i.test(type);

function jsonOrText(text: string, size: number, type: string): BodyView {
  if (isJsonType(type) || /^\s*[[{]/.test(text)) {
    try {
      return { kind: 'json', size, json: maskJson(JSON.parse(text)) };
    } catch {
      // not JSON after all: shown as text, with what looks like a secret's value masked
    }
  }
  return { kind: 'text', size, text: maskJsonLikeText(text) };
}

function formView(form: FormData): BodyView {
  const fields: Record<string, string | { file: string; size: number; type: string }> = {};
  form.forEach((value, name) => {
    fields[name] =
      typeof value !== 'string'
        ? { file: value.name, size: value.size, type: value.type }
        : isSecretName(name)
          ? MASK
          : value;
  });
  return { kind: 'form', fields };
}

/** The request body's size as read or declared (undefined: unknown), and whether there was one at all. */
function bodyLength(facts: ExchangeFacts): { size: number | undefined; none: boolean } {
  const declared = facts.requestHeaders.get('content-length');
  const size = facts.requestBodySize ?? (declared === null ? undefined : Number(declared));
  return { size, none: size === 0 || (size === undefined && !facts.hasRequestBody) };
}

function requestBodyView(facts: ExchangeFacts): BodyView {
  const body = facts.requestBody;
  const type = facts.requestHeaders.get('content-type') ?? '';
  const { size, none } = bodyLength(facts);
  if (none) return { kind: 'none' };
  if (body instanceof FormData) return formView(body);
  if (body === undefined)
    return {
      kind: 'omitted',
      reason: facts.requestBodySize === undefined ? 'unread' : 'large',
      size,
      contentType: type || undefined,
    };
  if (isUrlEncodedType(type)) return { kind: 'text', size: body.byteLength, text: maskQuery(decoder.decode(body)) };
  if (!isJsonType(type) && !isTextType(type) && type !== '')
    return { kind: 'omitted', reason: 'binary', size: body.byteLength, contentType: type };
  return jsonOrText(decoder.decode(body), body.byteLength, type);
}

function responseBodyView(facts: ExchangeFacts): BodyView {
  const type = facts.response.headers.get('content-type') ?? '';
  if (facts.responseJson !== undefined)
    return jsonOrText(facts.responseJson, new TextEncoder().encode(facts.responseJson).length, type);
  if (facts.responseJsonLength !== undefined)
    return { kind: 'omitted', reason: 'large', size: facts.responseJsonLength, contentType: type };
  if (!facts.hasResponseBody) return { kind: 'none' };
  const declared = facts.response.headers.get('content-length');
  const size = declared === null ? undefined : Number(declared);
  if (size === 0) return { kind: 'none' };
  return {
    kind: 'omitted',
    reason: isJsonType(type) || isTextType(type) ? 'unread' : 'binary',
    size,
    contentType: type || undefined,
  };
}

/**
 * One request the engine answered. It holds what the recorder took (references, no copies) and works out what it
 * shows only when read: masking, parsing and formatting cost nothing for requests nobody looks at.
 *
 * @example
 * engine.onExchange((exchange: Exchange) => {
 *   const { method, path, status } = exchange.summary();
 *   if (status >= 500) console.error(method, path, exchange.details().response.body);
 * });
 */
export class Exchange {
  #summary: ExchangeSummary | undefined;

  constructor(private readonly facts: ExchangeFacts) {}

  /** Unique within the engine's run: the run's own prefix and `seq`. */
  get id(): string {
    return `${RUN}-${this.facts.seq}`;
  }

  /** The exchange's number in the run, counting up from 1: later requests have larger numbers. */
  get seq(): number {
    return this.facts.seq;
  }

  /** The list entry (worked out once). */
  summary(): ExchangeSummary {
    if (this.#summary) return this.#summary;
    const { facts } = this;
    const url = new URL(facts.url);
    this.#summary = {
      id: this.id,
      time: new Date(performance.timeOrigin + facts.startedAt).toISOString(),
      method: facts.method,
      path: maskPathAndQuery(url, facts.route),
      status: facts.status,
      durationMs: Math.round(facts.durationMs * 100) / 100,
      caller: callerOf(facts),
      area: areaOf(facts.method, servicePath(url.pathname)),
      project: facts.project.config.authenticationId,
    };
    const { fault } = facts;
    if (fault) {
      const { delayMs } = fault.spec;
      this.#summary.injected = { faultId: fault.id, kind: fault.kind, ...(delayMs && { delayMs }) };
    }
    return this.#summary;
  }

  /** Everything, secrets masked; worked out at each call (not kept, so the list costs no more memory once read). */
  details(): ExchangeDetails {
    const { facts } = this;
    return {
      ...this.summary(),
      request: { headers: maskHeaders(facts.requestHeaders), body: requestBodyView(facts) },
      response: { headers: maskHeaders(facts.response.headers), body: responseBodyView(facts) },
    };
  }

  /** A header of the request as it came (secrets unmasked: for the server's own use). */
  requestHeader(name: string): string | null {
    return this.facts.requestHeaders.get(name);
  }

  /** The address the request was sent to, secrets masked: the server's origin and the summary's path. */
  address(): string {
    return new URL(this.facts.url).origin + this.summary().path;
  }

  /**
   * The request once more as it came (secrets too: it never leaves the server), its headers in the project's header
   * `word` and marked `X-Replay-Of: <id>`; undefined when its body was not kept (streamed, or larger than
   * `inspectorBodyBytes`).
   */
  resend(word: string): Request | undefined {
    const { facts } = this;
    const body = facts.requestBody;
    if (body === undefined && !bodyLength(facts).none) return undefined;
    const headers = new Headers();
    for (const [name, value] of facts.requestHeaders) {
      // A new body gets its own length, and a form its own boundary.
      if (name === 'content-length' || name === 'transfer-encoding') continue;
      if (name === 'content-type' && body instanceof FormData) continue;
      headers.append(name.startsWith('x-service-') ? `x-${word}-${name.slice('x-service-'.length)}` : name, value);
    }
    headers.set(REPLAY_HEADER, this.id);
    return new Request(facts.url, { method: facts.method, headers, body: body as BodyInit | undefined });
  }

  /** What `JSON.stringify` writes: the details. */
  toJSON(): ExchangeDetails {
    return this.details();
  }
}
