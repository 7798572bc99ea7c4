import { pathPattern, type PathTest } from '../shared/http/path-pattern.js';

/**
 * What a fault does to the requests it matches, as `POST /__admin/faults` takes it (checked by `parseFault`).
 *
 * @example
 * const fault: FaultSpec = { method: 'POST', path: '/auth/login', status: 503, times: 1 };
 * await engine.fetch(new Request('http://local/__admin/faults', { method: 'POST', headers: masterKeyHeaders, body: JSON.stringify(fault) }));
 */
export interface FaultSpec {
  /** Only requests of this method (upper case); any method when absent. */
  method?: string;
  /** A concrete path or a pattern as the contract writes paths (`/object-storage/classes/{tableName}/{objectId}`). */
  path: string;
  /** Answer with this status and a `{code, error}` body instead of the real answer; nothing changes. */
  status?: number;
  /** The body's `code` (a default that fits the status and the operation when absent). */
  code?: number;
  /** The body's `error` (a default that fits the status and the operation when absent). */
  error?: string;
  /** `reset`: no answer at all, the connection is dropped (in msw a network error); nothing changes. */
  network?: 'reset';
  /** Wait this long first; alone, the real answer comes after the wait. */
  delayMs?: number;
  /** Apply to this many requests, then no more. */
  times?: number;
  /** Apply to this share of the matching requests, decided by a generator started from `seed`. */
  probability?: number;
  /** Starts the generator that decides `probability`: the same seed decides the same way for the same requests. */
  seed?: number;
}

/**
 * A fault as the admin API lists it.
 *
 * @example
 * const { faults }: { faults: FaultView[] } = await (await engine.fetch(new Request('http://local/__admin/faults', { headers: masterKeyHeaders }))).json();
 * faults.map((fault) => `${fault.id}: ${fault.applied} applied, ${fault.remaining ?? 'unlimited'} left`);
 */
export interface FaultView extends FaultSpec {
  id: string;
  /** What is left of `times`; null when unlimited. */
  remaining: number | null;
  /** How many requests it was applied to. */
  applied: number;
  /** How many requests matched its method and path (applied or left alone by `probability`). */
  matched: number;
  /** When it was set (ISO 8601, the server clock). */
  createdAt: string;
}

/**
 * A small seeded generator (mulberry32): reproducible where `Math.random` is not, and independent of the engine's
 * random source, whose draws the journal records per request.
 */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One fault set on a project: whether a request is its, and how many more it applies to. */
export class Fault {
  readonly #path: PathTest;
  readonly #random: (() => number) | undefined;
  #applied = 0;
  #matched = 0;

  constructor(
    readonly id: string,
    readonly spec: FaultSpec,
    readonly createdAt: string,
  ) {
    this.#path = pathPattern(spec.path);
    this.#random = spec.probability === undefined ? undefined : generator(spec.seed ?? 0);
  }

  get exhausted(): boolean {
    return this.spec.times !== undefined && this.#applied >= this.spec.times;
  }

  /**
   * True when the request (its method and its path as the routes see it) is to get this fault now; counts it. A
   * request that matches draws the next number of the fault's generator, applied or not.
   */
  take(method: string, path: string): boolean {
    if (this.exhausted || (this.spec.method !== undefined && this.spec.method !== method) || !this.#path(path))
      return false;
    this.#matched++;
    if (this.#random && this.#random() >= this.spec.probability!) return false;
    this.#applied++;
    return true;
  }

  view(): FaultView {
    const { times } = this.spec;
    return {
      id: this.id,
      ...this.spec,
      remaining: times === undefined ? null : times - this.#applied,
      applied: this.#applied,
      matched: this.#matched,
      createdAt: this.createdAt,
    };
  }
}
