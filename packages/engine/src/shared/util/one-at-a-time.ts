/**
 * Runs work one piece at a time, in the order it was given: each piece starts once the one before it has ended, and
 * a piece that fails does not stop the next (its caller gets the failure).
 *
 * @example
 * const writes = new OneAtATime();
 * void writes.run(() => save(a));
 * await writes.run(() => save(b)); // starts once save(a) has ended, failed or not
 */
export class OneAtATime {
  #last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#last.then(work);
    this.#last = run.catch(() => undefined);
    return run;
  }

  /** Settles once every piece given so far has ended. */
  idle(): Promise<unknown> {
    return this.#last;
  }
}
