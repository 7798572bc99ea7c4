/**
 * How far the clock may run ahead of real time: 100 years, in seconds. Every date the server gives then keeps the
 * service's four-digit year (`YYYY-MM-DDTHH:MM:SS.MMMZ`) with room to spare for token lifetimes added to it.
 */
export const MAX_CLOCK_OFFSET_SECONDS = 100 * 365.25 * 86_400;
const MAX_OFFSET_MS = MAX_CLOCK_OFFSET_SECONDS * 1000;

/** True for an offset the clock can hold: milliseconds from 0 to `MAX_CLOCK_OFFSET_SECONDS`. */
export const isClockOffset = (ms: unknown): ms is number => typeof ms === 'number' && ms >= 0 && ms <= MAX_OFFSET_MS;

/**
 * A project's clock: real time plus an offset that the admin API can move forward. A request reads it through its
 * `Moment` (`c.env.moment`), which the journal pins to one real time; background work (a transcoder job) reads it
 * here.
 */
export class Clock {
  #offsetMs = 0;

  /** Milliseconds since the epoch, now. */
  now(): number {
    return this.at(Date.now());
  }

  /** What the clock reads at the real time `realMs`. */
  at(realMs: number): number {
    return realMs + this.#offsetMs;
  }

  /** The service's timestamp form, `YYYY-MM-DDTHH:MM:SS.MMMZ`. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** How far the admin API has moved the clock ahead of real time, in milliseconds. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** The seconds the clock may still be moved forward (`MAX_CLOCK_OFFSET_SECONDS` in all). */
  get headroomSeconds(): number {
    return (MAX_OFFSET_MS - this.#offsetMs) / 1000;
  }

  /** Moves the clock forward; callers keep within `headroomSeconds` (a RangeError otherwise: the clock is unchanged). */
  advance(seconds: number): void {
    const offsetMs = this.#offsetMs + seconds * 1000;
    if (!(seconds >= 0 && isClockOffset(offsetMs)))
      throw new RangeError(`the clock moves forward by 0 to ${this.headroomSeconds} seconds, not ${seconds}`);
    this.#offsetMs = offsetMs;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}

/**
 * Whole milliseconds since it was started, by the platform's monotonic clock: how long something took (a delivery's
 * try), never a time that state keeps (that is the request's `c.env.moment`, or `project.clock` in background work).
 *
 * @example
 * const elapsed = stopwatch();
 * await send(request);
 * attempt.ms = elapsed();
 */
export function stopwatch(): () => number {
  const started = performance.now();
  return () => Math.round(performance.now() - started);
}
