import { RankedSet } from '../../shared/util/ranked-set.js';

/** How many jobs may run at once: in all, and per owner (the master token's jobs count only against the total). */
interface QueueLimits {
  concurrency: number;
  concurrencyPerUser: number;
}

/** The owner of the master token's jobs in the queue; users are their user ids. */
export const MASTER_OWNER = '';

/** The tasks one owner has waiting, oldest first, and when the oldest was pushed. */
interface Backlog {
  owner: string;
  tasks: { task: () => Promise<void>; pushed: number }[];
}

/**
 * Runs tasks at most `concurrency` at a time, taking owners in turn: a free slot goes to the oldest task of the
 * owner with the fewest tasks running, and no user runs more than `concurrencyPerUser` at once, so one user's
 * backlog never keeps another user's job waiting for longer than a running job takes. The owners with tasks
 * waiting are kept in that order (fewest running, then oldest task), so choosing the next task and counting an
 * owner's waiting tasks cost O(log owners), however many owners and tasks wait.
 */
export class JobQueue {
  readonly #backlogs = new Map<string, Backlog>();
  readonly #ready = new RankedSet<Backlog>(
    (a, b) => this.#runningOf(a.owner) - this.#runningOf(b.owner) || a.tasks[0]!.pushed - b.tasks[0]!.pushed,
  );
  readonly #running = new Map<string, number>();
  #total = 0;
  #pushed = 0;

  constructor(private readonly limits: () => QueueLimits) {}

  /** `task` must settle without throwing: a job records its own failures. */
  push(owner: string, task: () => Promise<void>): void {
    const waiting = { task, pushed: this.#pushed++ };
    const backlog = this.#backlogs.get(owner);
    // A backlog's place depends on its oldest task only: a newer one joins it where it is.
    if (backlog) backlog.tasks.push(waiting);
    else {
      const created = { owner, tasks: [waiting] };
      this.#backlogs.set(owner, created);
      this.#ready.insert(created);
    }
    this.#next();
  }

  /** Tasks of `owner` waiting to start. */
  waiting(owner: string): number {
    return this.#backlogs.get(owner)?.tasks.length ?? 0;
  }

  #next(): void {
    for (let backlog = this.#pick(); backlog; backlog = this.#pick()) {
      const { owner } = backlog;
      this.#ready.remove(backlog);
      const { task } = backlog.tasks.shift()!;
      if (backlog.tasks.length === 0) this.#backlogs.delete(owner);
      else this.#ready.insert(backlog);
      this.#count(owner, +1);
      void task().finally(() => {
        this.#count(owner, -1);
        this.#next();
      });
    }
  }

  /**
   * The backlog to start a task of now, if any. The first in order has the fewest running: when it is a user at
   * `concurrencyPerUser`, so is every user after it, and only the master token's tasks may start.
   */
  #pick(): Backlog | undefined {
    const { concurrency, concurrencyPerUser } = this.limits();
    if (this.#total >= concurrency) return undefined;
    const first = this.#ready.at(0);
    if (!first || first.owner === MASTER_OWNER || this.#runningOf(first.owner) < concurrencyPerUser) return first;
    return this.#backlogs.get(MASTER_OWNER);
  }

  #runningOf(owner: string): number {
    return this.#running.get(owner) ?? 0;
  }

  /** Changes the count of `owner`'s running tasks, keeping its backlog's place in the order. */
  #count(owner: string, change: number): void {
    const backlog = this.#backlogs.get(owner);
    if (backlog) this.#ready.remove(backlog);
    this.#total += change;
    const running = this.#runningOf(owner) + change;
    if (running === 0) this.#running.delete(owner);
    else this.#running.set(owner, running);
    if (backlog) this.#ready.insert(backlog);
  }
}
