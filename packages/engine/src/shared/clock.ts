/** The server's clock: real time plus an offset that the admin API can move forward. */
export class Clock {
  #offsetMs = 0;

  /** Milliseconds since the epoch. */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** The service's timestamp form, `YYYY-MM-DDTHH:MM:SS.MMMZ`. */
  iso(): string {
    return this.date().toISOString();
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}
