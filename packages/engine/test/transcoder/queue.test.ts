// The transcoder's queue keeps the owners with jobs waiting in order (fewest running, then oldest job), so choosing
// the next job no longer reads every waiting job. It must start the same jobs in the same order as the queue that
// read them all: both run the same seeded sequence of pushes, job ends and limit changes, and their starts are compared.
import { describe, expect, it } from 'vitest';
import { JobQueue, MASTER_OWNER } from '../../src/areas/transcoder/queue.js';
import { seeded } from '../support/seeded.js';

interface QueueLimits {
  concurrency: number;
  concurrencyPerUser: number;
}

// The queue before the ordered owners (packages/engine/src/areas/transcoder/queue.ts), verbatim but for its name.
interface Waiting {
  owner: string;
  task: () => Promise<void>;
}
class ReadingQueue {
  readonly #waiting: Waiting[] = [];
  readonly #running = new Map<string, number>();
  #total = 0;
  constructor(private readonly limits: () => QueueLimits) {}
  push(owner: string, task: () => Promise<void>): void {
    this.#waiting.push({ owner, task });
    this.#next();
  }
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

/** A queue driven by hand: each task starts when the queue says so and ends when `end` is called. */
function driven(make: (limits: () => QueueLimits) => Pick<JobQueue, 'push' | 'waiting'>, limits: QueueLimits) {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const queue = make(() => limits);
  return {
    started,
    limits,
    push(owner: string, id: string) {
      queue.push(owner, () => {
        started.push(id);
        return new Promise<void>((resolve) => ends.set(id, resolve));
      });
    },
    end(id: string) {
      ends.get(id)?.();
      ends.delete(id);
    },
    running: () => [...ends.keys()],
    waiting: (owner: string) => queue.waiting(owner),
  };
}

const OWNERS = [MASTER_OWNER, 'ann', 'bob', 'cy', 'dee', 'eve'];

describe('the transcoder queue', () => {
  it('starts the jobs the queue reading every waiting job started, in the same order, through 2,000 changes', async () => {
    const random = seeded(28);
    const limits = { concurrency: 3, concurrencyPerUser: 1 };
    const before = driven((l) => new ReadingQueue(l), { ...limits });
    const now = driven((l) => new JobQueue(l), { ...limits });
    for (let step = 0; step < 2000; step++) {
      const roll = random.next();
      if (roll < 0.5) {
        const owner = random.pick(OWNERS);
        for (const queue of [before, now]) queue.push(owner, `${owner || 'master'}-${step}`);
      } else if (roll < 0.95) {
        const running = before.running();
        if (running.length > 0) {
          const id = random.pick(running);
          for (const queue of [before, now]) queue.end(id);
        }
      } else {
        const changed = { concurrency: 1 + random.int(5), concurrencyPerUser: 1 + random.int(3) };
        for (const queue of [before, now]) Object.assign(queue.limits, changed);
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(now.started, `step ${step}`).toEqual(before.started);
      for (const owner of OWNERS) expect(now.waiting(owner), `step ${step}`).toBe(before.waiting(owner));
    }
    expect(now.started.length).toBeGreaterThan(500);
  });
});
