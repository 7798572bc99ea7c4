// Requests the transcoder makes to addresses its callers chose (sources, watermark images, webhooks, upload
// deliveries), each bounded in time and in the bytes it takes in, so that no remote party can hold a job slot or
// fill memory or disk.
import type { Config } from '../../config.js';

/** The time limits of one outbound exchange. */
export interface OutboundLimits {
  /** From sending the request (its body included) until the answer's headers arrive: connecting, TLS and waiting. */
  firstByteTimeoutMs: number;
  /** The whole exchange, the answer's body included. */
  transferTimeoutMs: number;
}

/** The outbound time limits of a project's config. */
export function outboundLimits(config: Config): OutboundLimits {
  return {
    firstByteTimeoutMs: config.transcoderFirstByteTimeoutMs,
    transferTimeoutMs: config.transcoderTransferTimeoutMs,
  };
}

/** Why an outbound exchange failed, in detail: for the server's own records (the admin job view), not for callers. */
class OutboundFailure extends Error {}

/**
 * One outbound exchange under its limits: `abort` ends it with a failure, and the timers end it when they run out.
 * `signal` goes to fetch; an outer signal (the job's time limit) aborts it too, with its own reason.
 */
class Exchange {
  readonly #controller = new AbortController();
  readonly #timers: ReturnType<typeof setTimeout>[] = [];
  /** Stops following the outer signal: a job's signal outlives its many exchanges, which must not pile up on it. */
  readonly #unfollow: () => void;
  failure?: OutboundFailure;

  constructor(
    readonly url: string,
    limits: OutboundLimits,
    outer?: AbortSignal,
  ) {
    if (outer?.aborted) this.#controller.abort(outer.reason);
    const follow = () => this.#controller.abort(outer!.reason);
    outer?.addEventListener('abort', follow, { once: true });
    this.#unfollow = () => outer?.removeEventListener('abort', follow);
    this.#timers.push(
      setTimeout(
        () => this.abort(`${url} sent no answer within ${limits.firstByteTimeoutMs} ms`),
        limits.firstByteTimeoutMs,
      ),
    );
    this.#timers.push(
      setTimeout(
        () => this.abort(`${url} did not finish within ${limits.transferTimeoutMs} ms`),
        limits.transferTimeoutMs,
      ),
    );
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The answer started: only the whole-transfer limit is left. */
  answered(): void {
    clearTimeout(this.#timers[0]);
  }

  abort(detail: string): void {
    this.failure ??= new OutboundFailure(detail);
    this.finish();
    this.#controller.abort(this.failure);
  }

  finish(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#unfollow();
  }

  /** The failure to report for an error thrown while the exchange ran. */
  explain(error: unknown): unknown {
    if (this.failure) return this.failure;
    if (this.signal.aborted) return this.signal.reason; // the outer signal, with its own reason
    return new OutboundFailure(`${this.url} is unreachable: ${(error as Error).message}`);
  }
}

/**
 * Sends one request under the limits; answers the status. The answer's body is not read. Throws `OutboundFailure`
 * when the address cannot be reached or a limit runs out, or the outer signal's reason when it aborts.
 */
export async function send(
  fetch: typeof globalThis.fetch,
  url: string,
  init: RequestInit,
  limits: OutboundLimits,
  outer?: AbortSignal,
): Promise<number> {
  const exchange = new Exchange(url, limits, outer);
  try {
    const response = await fetch(url, { ...init, signal: exchange.signal });
    await response.body?.cancel();
    return response.status;
  } catch (error) {
    throw exchange.explain(error);
  } finally {
    exchange.finish();
  }
}

/**
 * Fetches a 2xx answer's body under the limits and at most `maxBytes` long: the transfer stops as soon as more
 * arrive (whatever `Content-Length` says). Any failure (unreachable, not 2xx, too slow, too long) rejects with
 * `OutboundFailure`, at once or while the body is read; an outer abort rejects with the outer reason.
 */
export async function download(
  fetch: typeof globalThis.fetch,
  url: string,
  maxBytes: number,
  limits: OutboundLimits,
  outer?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const exchange = new Exchange(url, limits, outer);
  let response: Response;
  try {
    response = await fetch(url, { signal: exchange.signal });
  } catch (error) {
    exchange.finish();
    throw exchange.explain(error);
  }
  exchange.answered();
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (!response.ok || !response.body) exchange.abort(`${url} answered ${response.status}`);
  else if (declared > maxBytes)
    exchange.abort(`${url} announced ${declared} bytes, more than the limit of ${maxBytes}`);
  if (exchange.failure) {
    await response.body?.cancel().catch(() => undefined);
    throw exchange.failure;
  }
  // Read chunk by chunk, counting: errors (an abort by a limit, a broken connection) come out as the failure.
  const reader = response.body!.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          exchange.finish();
          stream.close();
          return;
        }
        received += value.byteLength;
        if (received <= maxBytes) stream.enqueue(value);
        else {
          // Aborting the fetch closes the connection: nothing more is read.
          exchange.abort(`${url} sent more than the limit of ${maxBytes} bytes`);
          stream.error(exchange.failure);
        }
      } catch (error) {
        exchange.finish();
        stream.error(exchange.explain(error));
      }
    },
    cancel(reason) {
      exchange.finish();
      return reader.cancel(reason);
    },
  });
}
