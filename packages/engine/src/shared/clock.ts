/** The server's clock: real time plus an offset that the admin API can move forward. */
export class Clock {
  #offsetMs = 0;
  /** While set, the real time the clock reads instead of `Date.now()` (the journal pins it for one request). */
  #pinnedMs: number | undefined;

  /** Milliseconds since the epoch. */
  now(): number {
    return (this.#pinnedMs ?? Date.now()) + this.#offsetMs;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** The service's timestamp form, `YYYY-MM-DDTHH:MM:SS.MMMZ`. */
  iso(): string {
    return this.date().toISOString();
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

  /**
   * Makes every reading use `realMs` as the real time until `unpin`: a request the journal records reads one time
   * throughout, which the journal keeps, so replaying the request at start-up reads the same.
   */
  pin(realMs: number): void {
    this.#pinnedMs = realMs;
  }

  unpin(): void {
    this.#pinnedMs = undefined;
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
