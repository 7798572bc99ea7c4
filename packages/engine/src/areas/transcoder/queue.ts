/** Runs tasks in submission order, at most `limit()` at a time. */
export class JobQueue {
  readonly #waiting: (() => Promise<void>)[] = [];
  #running = 0;

  constructor(private readonly limit: () => number) {}

  /** `task` must settle without throwing: a job records its own failures. */
  push(task: () => Promise<void>): void {
    this.#waiting.push(task);
    this.#next();
  }

  #next(): void {
    while (this.#running < this.limit() && this.#waiting.length > 0) {
      const task = this.#waiting.shift()!;
      this.#running++;
      void task().finally(() => {
        this.#running--;
        this.#next();
      });
    }
  }
}
