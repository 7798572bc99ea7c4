// A server's close waits for every project's snapshot, also when one project fails to write its own: the caller (a
// restart, a test's clean-up removing the data folder) may go on as soon as close settles.
import { expect, it } from 'vitest';
import { developmentConfig } from '../../src/config.js';
import { createEngine } from '../../src/index.js';
import { MemoryJournal } from '../support/memory-journal.js';
import { MemoryProjectStore } from '../support/memory-project-store.js';
import { secondProject } from './support.js';

/** A journal whose snapshot takes a while to write. */
class SlowJournal extends MemoryJournal {
  written = false;
  override async compact(snapshot: unknown): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    await super.compact(snapshot);
    this.written = true;
  }
}

/** A journal whose snapshot fails once `failing` is set (a disk gone at shutdown). */
class FailingJournal extends MemoryJournal {
  failing = false;
  override compact(snapshot: unknown): Promise<void> {
    return this.failing ? Promise.reject(new Error('the disk is gone')) : super.compact(snapshot);
  }
}

/** Every project beyond the default one keeps its state in `journal`. */
class OneJournalStore extends MemoryProjectStore {
  constructor(private readonly journal: MemoryJournal) {
    super();
  }
  override open(): Promise<{ journal: MemoryJournal }> {
    return Promise.resolve({ journal: this.journal });
  }
}

it("waits for the other projects' snapshots when one project fails to write its own, then rejects with its failure", async () => {
  const failing = new FailingJournal();
  const slow = new SlowJournal();
  const engine = createEngine({
    config: { ...developmentConfig(), projects: [secondProject()] },
    capabilities: { journal: failing, projects: new OneJournalStore(slow) },
  });
  await engine.ready;
  failing.failing = true;
  slow.written = false;
  await expect(engine.close()).rejects.toThrow('the disk is gone');
  expect(slow.written).toBe(true);
});
