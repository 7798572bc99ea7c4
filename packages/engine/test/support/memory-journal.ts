import type { Journal, JournalContents } from '../../src/shared/capabilities.js';

/**
 * A journal in memory: what `compact` and `append` leave is what `load` gives the next engine, copied as they were
 * written (as a journal on disk keeps the JSON of the moment: a slice of state changes on after it was kept). `copy()` is another
 * journal holding the same, to restart from without the restart's own writes reaching this one.
 */
export class MemoryJournal implements Journal {
  readonly location = 'memory';

  constructor(public contents: JournalContents = { snapshot: undefined, records: [] }) {}

  load(): Promise<JournalContents> {
    return Promise.resolve(structuredClone(this.contents));
  }

  append(record: unknown): Promise<void> {
    this.contents.records.push(structuredClone(record));
    return Promise.resolve();
  }

  compact(snapshot: unknown): Promise<void> {
    this.contents = { snapshot: structuredClone(snapshot), records: [] };
    return Promise.resolve();
  }

  copy(): MemoryJournal {
    return new MemoryJournal(structuredClone(this.contents));
  }
}
