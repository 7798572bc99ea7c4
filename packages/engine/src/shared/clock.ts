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

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}

/**
 * Whole milliseconds since it was started, by the platform's monotonic clock: how long something took (a delivery's
 * try), never a time that state keeps (that is `project.clock`, which the journal pins and the admin API moves).
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
