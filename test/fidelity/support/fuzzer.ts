import fc from 'fast-check';
import type { BodyContent, Contract, Operation } from './contract.js';
import { CALLERS, type Caller, type Fixture } from './fixture.js';
import { send, type Answer } from './send.js';

/**
 * A contract-driven fuzzer: for every operation of the bundled contract it builds a valid request from the
 * contract's own examples, then applies random mutations (wrong types, missing and unknown fields, huge, unicode,
 * deeply nested and prototype-polluting values, malformed bodies, wrong content types, absent and garbage headers,
 * tokens of other callers and projects) and checks the invariants every answer must keep.
 */

// ---- what a case is: plain data, so fast-check can generate, print and replay it ----------------------------------

type Mutation =
  | { kind: 'setField'; pick: number; value: unknown }
  | { kind: 'deleteField'; pick: number }
  | { kind: 'addKey'; pick: number; key: string; value: unknown }
  | { kind: 'replaceBody'; value: unknown }
  | { kind: 'rawBody'; text: string }
  | { kind: 'contentType'; value: string | null }
  | { kind: 'header'; pick: number; value: string | null }
  | { kind: 'query'; pick: number; value: string | null }
  | { kind: 'pathParam'; pick: number; value: string };

interface FuzzCase {
  op: number;
  caller: Caller;
  /** Which example and which media type of the body, which alternative of the security, which optional parameters. */
  example: number;
  content: number;
  alternative: number;
  optional: number;
  /** Picks among the known values of each path parameter. */
  pathPick: number;
  mutations: Mutation[];
}

/** A deeply nested value, built only when the request is (fast-check would print it recursively). */
class Deep {
  constructor(
    readonly depth: number,
    readonly asArray: boolean,
  ) {}

  build(): unknown {
    let value: unknown = 'deep';
    for (let i = 0; i < this.depth; i++) value = this.asArray ? [value] : { a: value };
    return value;
  }

  [fc.toStringMethod](): string {
    return `Deep(${this.depth}, ${this.asArray ? 'arrays' : 'objects'})`;
  }
}

/** A fresh copy of a generated value for the request (later mutations must not change the case itself). */
const materialize = (value: unknown): unknown =>
  value instanceof Deep ? value.build() : (JSON.parse(JSON.stringify(value) ?? 'null') as unknown);

/** An object whose own key is `__proto__` (as `JSON.parse` makes it), `constructor` or `prototype`. */
const pollutingObject = fc
  .constantFrom('__proto__', 'constructor', 'prototype')
  .map((key) => JSON.parse(`{"${key}": {"polluted": true, "prototype": {"polluted": true}}}`) as unknown);

/** Values no field expects. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(-1, -0.5, 0, 0.5, 1.5, 1e308, -1e308, 2 ** 53 + 2, 5e-324, -2_147_483_649),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.tuple(fc.integer({ min: 10, max: 3_000 }), fc.boolean()).map(([depth, asArray]) => new Deep(depth, asArray)),
  pollutingObject,
  fc.constantFrom(
    '../../etc/passwd',
    '%2e%2e%2fx',
    'a\u0000b',
    'a/b',
    '\\x',
    '$where',
    '',
    ' ',
    'true',
    '0',
    '[]',
    '{}',
    'ﷺ𝔘\u202e',
  ),
);

/** Bodies that are not what any operation reads. */
const rawBody = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[1,2',
    'nul',
    '{"a":1}}',
    "{'a':1}",
    '\u0000',
    '1e400',
    '[]',
    'null',
    '"s"',
    '123',
    '{"a":1,"a":2}',
  ),
  fc.constantFrom(
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":{"__proto__":{"x":1}}}',
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
  // Past the server's limits (docs/reliability.md, "Limits"): a body over maxJsonBodyBytes, a $regex past maxQueryCost.
  fc.integer({ min: 1, max: 2 }).map((mib) => `{"a":"${'x'.repeat(mib * 1024 * 1024)}"}`),
  fc.integer({ min: 100_000, max: 200_000 }).map((n) => `{"a":{"$regex":"${'a'.repeat(n)}"}}`),
);

/** Header values a client can send (visible ASCII), including ones that look almost right. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.constantFrom(
    'Bearer',
    'Bearer ',
    'bearer  x',
    'Basic dXNlcjpwYXNz',
    'Bearer eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im1hc3RlciJ9.',
    '1',
    '0',
    'true',
    'x'.repeat(8_000),
  ),
);

const contentType = fc.oneof(
  fc.constant(null),
  fc.constantFrom(
    'text/plain',
    'application/xml',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=zzz',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'application/merge-patch+json',
    '*/*',
    'garbage',
  ),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('setField' as const), pick: fc.nat(), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deleteField' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('addKey' as const),
      pick: fc.nat(),
      key: fc.oneof(
        fc.constantFrom('__proto__', 'constructor', 'prototype', '$where', '_id', 'ACL', 'a.b', ''),
        fc.string({ maxLength: 10 }),
      ),
      value: hostileValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceBody' as const), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rawBody' as const), text: rawBody }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('contentType' as const), value: contentType }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('header' as const), pick: fc.nat(), value: fc.option(headerValue) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('query' as const),
      pick: fc.nat(),
      value: fc.option(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 20 }),
          fc.constantFrom('-1', '0', '1.5', '1e3', '99999999999999999999', 'NaN', '', 'x'),
        ),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('pathParam' as const),
      pick: fc.nat(),
      value: fc.oneof(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).filter((v) => v !== '.' && v !== '..'),
        fc.constantFrom('%2e%2e', 'a%2Fb', '%00', 'x'.repeat(5_000), 'query', '__proto__', 'constructor', ' '),
      ),
    }),
  },
);

/** Cases over the operations of a contract: valid ones (no mutation) and mutated ones. */
function fuzzCase(operations: number): fc.Arbitrary<FuzzCase> {
  return fc.record({
    op: fc.nat({ max: operations - 1 }),
    caller: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('user', 'master') as fc.Arbitrary<Caller> },
      { weight: 4, arbitrary: fc.constantFrom(...CALLERS) },
    ),
    example: fc.nat(),
    content: fc.nat(),
    alternative: fc.nat(),
    optional: fc.nat(),
    pathPick: fc.nat(),
    mutations: fc.oneof(
      { weight: 1, arbitrary: fc.constant<Mutation[]>([]) },
      { weight: 4, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
    ),
  });
}

// ---- turning a case into an HTTP request --------------------------------------------------------------------------

type Container = Record<string, unknown> | unknown[];

/** Every place in a JSON value (objects and arrays, up to a small depth) as [container, key]. */
function places(value: unknown, depth = 0, out: [Container, string | number][] = []): [Container, string | number][] {
  if (depth > 4 || typeof value !== 'object' || value === null) return out;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    out.push([value as Container, key]);
    places(child, depth + 1, out);
  }
  return out;
}

function containers(value: unknown): Container[] {
  const found: Container[] = typeof value === 'object' && value !== null ? [value as Container] : [];
  for (const [container, key] of places(value)) {
    const child = (container as Record<string | number, unknown>)[key];
    if (typeof child === 'object' && child !== null) found.push(child as Container);
  }
  return found;
}

const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);

/** Puts `value` under `key`, also when the key is `__proto__` (an own property, as JSON.parse makes it). */
function setOwn(container: Container, key: string | number, value: unknown): void {
  Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
}

function applyToJson(body: unknown, mutations: Mutation[], properties: string[]): unknown {
  let value = body;
  for (const m of mutations) {
    if (m.kind === 'replaceBody') value = materialize(m.value);
    if (m.kind === 'setField' || m.kind === 'deleteField') {
      const targets = places(value);
      // The schema's own properties count too, so fields the example leaves out are tried as well.
      if (value && typeof value === 'object' && !Array.isArray(value))
        for (const p of properties) if (!(p in value)) targets.push([value as Container, p]);
      const target = pick(targets, m.pick);
      if (!target) continue;
      const [container, key] = target;
      if (m.kind === 'setField') setOwn(container, key, materialize(m.value));
      else if (Array.isArray(container)) container.splice(key as number, 1);
      else delete container[key as string];
    }
    if (m.kind === 'addKey') {
      const container = pick(containers(value), m.pick);
      if (container && !Array.isArray(container)) setOwn(container, m.key, materialize(m.value));
    }
  }
  return value;
}

/** A form field value from whatever a mutation sets. */
const formValue = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

/** `(binary, file name "my cat.jpg")` in a multipart example stands for a file with that name. */
function formPart(value: string): string | Blob {
  const file = /^\(binary(?:, file name "([^"]+)")?\)$/.exec(value);
  return file
    ? new File([`content of ${file[1] ?? 'file'}`], file[1] ?? 'file.bin', { type: 'application/octet-stream' })
    : value;
}

/** A mutation in a line: long strings shortened to their start and length. */
function brief(m: Mutation): string {
  const short = (v: unknown) =>
    typeof v === 'string' && v.length > 40
      ? `${JSON.stringify(v.slice(0, 20))}…(${v.length} chars)`
      : fc.stringify(v).slice(0, 80);
  const { kind, ...rest } = m;
  return `${kind}(${Object.entries(rest)
    .map(([k, v]) => `${k}=${short(v)}`)
    .join(' ')})`;
}

interface BuiltRequest {
  op: Operation;
  url: string;
  init: RequestInit & { headers: Record<string, string> };
  /** A short description for reports. */
  describe: string;
}

/** Known good values of path parameters by name (real ids of the fixture), beside the contract's examples. */
export type ParameterPool = Record<string, string[]>;

function buildRequest(contract: Contract, fixture: Fixture, pool: ParameterPool, c: FuzzCase): BuiltRequest {
  const op = contract.operations[c.op]!;
  const headers: Record<string, string> = {};
  const query = new URLSearchParams();
  const pathValues: Record<string, string> = {};

  for (const scheme of pick(op.security, c.alternative) ?? []) {
    if (scheme === 'bearer') Object.assign(headers, fixture.auth(c.caller));
    else if (scheme === 'authenticationKey')
      headers[contract.headerOf[scheme]!] =
        c.caller === 'master' ? fixture.server.config.masterKey : fixture.schemeValues[scheme]!;
    else if (contract.headerOf[scheme]) headers[contract.headerOf[scheme]] = fixture.schemeValues[scheme]!;
  }
  op.parameters.forEach((p, i) => {
    const known = [...(pool[p.name] ?? []), ...p.examples.map(String)];
    const value = pick(known, c.pathPick + i) ?? 'x';
    // Optional parameters are sent or not by the bits of `optional`.
    if (!p.required && ((c.optional >> i) & 1) === 0) return;
    if (p.in === 'path') pathValues[p.name] = value;
    if (p.in === 'query') query.set(p.name, value);
    if (p.in === 'header') headers[p.name] = value;
  });

  const content: BodyContent | undefined = op.body && pick(op.body.contents, c.content);
  let body: BodyInit | undefined;
  let type: string | null | undefined;
  if (content) {
    const example = structuredClone(pick(content.examples, c.example) ?? {});
    if (content.mediaType === 'application/json') {
      body = JSON.stringify(applyToJson(example, c.mutations, content.properties));
      type = 'application/json';
    } else {
      const fields = applyToJson(example, c.mutations, content.properties);
      const entries = fields && typeof fields === 'object' ? Object.entries(fields) : [['value', fields] as const];
      if (content.mediaType === 'multipart/form-data') {
        const form = new FormData();
        for (const [k, v] of entries) form.append(k, formPart(formValue(v)));
        body = form; // fetch sets the type with its boundary
      } else {
        body = new URLSearchParams(entries.map(([k, v]) => [k, formValue(v)]));
        type = content.mediaType;
      }
    }
  }

  const headerNames = [
    ...Object.keys(headers),
    ...op.parameters.filter((p) => p.in === 'header').map((p) => p.name),
    'Authorization',
  ];
  const queryNames = [...op.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'unknown'];
  const pathNames = Object.keys(pathValues);
  for (const m of c.mutations) {
    if (m.kind === 'rawBody') body = m.text;
    if (m.kind === 'contentType') type = m.value;
    if (m.kind === 'header') {
      const name = pick(headerNames, m.pick)!;
      if (m.value === null) delete headers[name];
      else headers[name] = m.value;
    }
    if (m.kind === 'query') {
      const name = pick(queryNames, m.pick)!;
      if (m.value === null) query.delete(name);
      else query.set(name, m.value);
    }
    if (m.kind === 'pathParam' && pathNames.length) pathValues[pick(pathNames, m.pick)!] = m.value;
  }
  if (type) headers['Content-Type'] = type;
  else if (type === null) delete headers['Content-Type'];

  // Path parameters are sent percent-encoded, except `path` of the download, which is a path of several names.
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'path' ? pathValues[name]! : encodeURIComponent(pathValues[name] ?? ''),
  );
  const search = query.toString();
  const url = `${fixture.server.url}${path}${search ? `?${search}` : ''}`;
  const describe = `${op.method.toUpperCase()} ${path.slice(0, 200)}${search ? `?${search.slice(0, 120)}` : ''} as ${c.caller}; mutations ${c.mutations.map(brief).join(', ')}`;
  return {
    op,
    url,
    init: { method: op.method.toUpperCase(), headers, ...(body !== undefined && op.method !== 'get' ? { body } : {}) },
    describe,
  };
}

// ---- the invariants -----------------------------------------------------------------------------------------------

type ViolationKind =
  | 'server error (5xx)'
  | 'error body is not {code, error}'
  | 'failed request changed state'
  | 'contract mismatch'
  | 'no answer';

export interface Violation {
  kind: ViolationKind;
  operation: string;
  request: string;
  response: string;
}

/**
 * Answers of the server's own limits, which the contract leaves to the service (docs/reliability.md, "Limits"): a
 * body or row too large (413, codes 5 and 151) and a query past its cost budget (400, code 150) may come from any
 * operation that reads such a body; they must still be `{code, error}` and change nothing.
 */
const LIMIT_ANSWERS: Record<number, number[]> = { 413: [5, 151], 400: [150] };

const isLimitAnswer = (status: number, body: unknown): boolean =>
  errorShape(body) && (LIMIT_ANSWERS[status] ?? []).includes((body as { code: number }).code);

function errorShape(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const keys = Object.keys(body).sort();
  const { code, error } = body as Record<string, unknown>;
  return keys.join() === 'code,error' && Number.isInteger(code) && typeof error === 'string';
}

/** Sends one request; its status (0 when unanswered) and every invariant it broke. */
async function checkRequest(
  contract: Contract,
  fixture: Fixture,
  built: BuiltRequest,
): Promise<{ status: number; violations: Violation[] }> {
  const before = await fixture.snapshot();
  const violations: Violation[] = [];
  const report = (kind: ViolationKind, response: string) =>
    violations.push({ kind, operation: built.op.id, request: built.describe, response: response.slice(0, 600) });
  let res: Answer;
  try {
    res = await send(built.url, built.init);
  } catch (error) {
    // A client-side refusal (an invalid header value, say) says nothing about the server; a lost connection does.
    if (error instanceof TypeError) return { status: 0, violations };
    report('no answer', String(error));
    return { status: 0, violations };
  }
  const { text } = res;
  const contentType = [res.headers['content-type']].flat()[0] ?? null;
  let body: unknown = text;
  if (contentType?.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  const answer = `${res.status} ${text.slice(0, 300)}`;
  if (res.status >= 500) report('server error (5xx)', answer);
  const ok = res.status >= 200 && res.status < 300;
  if (!ok && res.status !== 304 && !errorShape(body)) report('error body is not {code, error}', answer);
  // A 5xx is reported above; the contract's list of statuses is about what the server should answer.
  const mismatch =
    res.status < 500 &&
    !isLimitAnswer(res.status, body) &&
    contract.checkResponse(built.op, res.status, contentType, body);
  if (mismatch) report('contract mismatch', `${answer} — ${mismatch}`);
  if (!ok && (await fixture.snapshot()) !== before) report('failed request changed state', answer);
  return { status: res.status, violations };
}

export interface FuzzResult {
  cases: number;
  /** Cases answered 2xx. */
  succeeded: number;
  /** Cases per operation id. */
  perOperation: Record<string, number>;
  /** How often each status was answered. */
  statuses: Record<number, number>;
  violations: Violation[];
}

/**
 * Runs `numRuns` cases with a fixed seed against fixtures made by `start` (a fresh project every `casesPerProject`
 * cases, so state stays small). Every violation is collected, not only the first.
 */
export async function runFuzz(options: {
  contract: Contract;
  start: () => Promise<{ fixture: Fixture; pool: ParameterPool }>;
  seed: number;
  numRuns: number;
  casesPerProject?: number;
}): Promise<FuzzResult> {
  const { contract, start, seed, numRuns, casesPerProject = 200 } = options;
  const result: FuzzResult = { cases: 0, succeeded: 0, perOperation: {}, statuses: {}, violations: [] };
  let current: { fixture: Fixture; pool: ParameterPool } | undefined;
  await fc.assert(
    fc.asyncProperty(fuzzCase(contract.operations.length), async (c) => {
      if (!current || result.cases % casesPerProject === 0) {
        await current?.fixture.close();
        current = await start();
      }
      const built = buildRequest(contract, current.fixture, current.pool, c);
      result.cases++;
      result.perOperation[built.op.id] = (result.perOperation[built.op.id] ?? 0) + 1;
      const { status, violations } = await checkRequest(contract, current.fixture, built);
      if (status >= 200 && status < 300) result.succeeded++;
      result.statuses[status] = (result.statuses[status] ?? 0) + 1;
      result.violations.push(...violations);
      return true;
    }),
    { seed, numRuns, endOnFailure: true },
  );
  // The server keeps answering after everything it was sent. Asked with the master token: a case may have deleted
  // the fixture's users (deleteUser), never the master.
  if (current) {
    const res = await fetch(`${current.fixture.server.url}/auth/users?page=0&pageSize=1`, {
      headers: {
        'X-Service-Authentication-Id': current.fixture.schemeValues['authenticationId']!,
        ...current.fixture.auth('master'),
      },
    });
    if (res.status !== 200)
      result.violations.push({
        kind: 'no answer',
        operation: 'listUsers',
        request: 'after the run',
        response: String(res.status),
      });
    await current.fixture.close();
  }
  return result;
}
