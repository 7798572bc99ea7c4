/** How many jobs may run at once: in all, and per owner (the master token's jobs count only against the total). */
interface QueueLimits {
  concurrency: number;
  concurrencyPerUser: number;
}

/** The owner of the master token's jobs in the queue; users are their user ids. */
export const MASTER_OWNER = '';

interface Waiting {
  owner: string;
  task: () => Promise<void>;
}

/**
 * Runs tasks at most `concurrency` at a time, taking owners in turn: a free slot goes to the oldest task of the
 * owner with the fewest tasks running, and no user runs more than `concurrencyPerUser` at once, so one user's
 * backlog never keeps another user's job waiting for longer than a running job takes.
 */
export class JobQueue {
  readonly #waiting: Waiting[] = [];
  readonly #running = new Map<string, number>();
  #total = 0;

  constructor(private readonly limits: () => QueueLimits) {}

  /** `task` must settle without throwing: a job records its own failures. */
  push(owner: string, task: () => Promise<void>): void {
    this.#waiting.push({ owner, task });
    this.#next();
  }

  /** Tasks of `owner` waiting to start. */
  waiting(owner: string): number {
    return this.#waiting.reduce((n, w) => n + (w.owner === owner ? 1 : 0), 0);
  }

  #next(): void {
    for (let index = this.#pick(); index >= 0; index = this.#pick()) {
      const [{ owner, task }] = this.#waiting.splice(index, 1) as [Waiting];
      this.#count(owner, +1);
      void task().finally(() => {
        this.#count(owner, -1);
        this.#next();
      });
    }
  }

  /** The index of the task to start now, or -1. */
  #pick(): number {
    const { concurrency, concurrencyPerUser } = this.limits();
    if (this.#total >= concurrency) return -1;
    let best = -1;
    let fewest = Infinity;
    this.#waiting.forEach(({ owner }, i) => {
      const running = this.#running.get(owner) ?? 0;
      if (running < fewest && (owner === MASTER_OWNER || running < concurrencyPerUser)) [best, fewest] = [i, running];
    });
    return best;
  }

  #count(owner: string, change: number): void {
    this.#total += change;
    const running = (this.#running.get(owner) ?? 0) + change;
    if (running === 0) this.#running.delete(owner);
    else this.#running.set(owner, running);
  }
}
