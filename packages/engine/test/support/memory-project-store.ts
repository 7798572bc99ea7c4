import type { ProjectStore } from '../../src/shared/capabilities.js';
import { MemoryJournal } from './memory-journal.js';

/**
 * The projects of a server kept in memory, each with a journal of its own. `copy()` is another store holding the
 * same, to restart from without the restart's own writes reaching this one.
 */
export class MemoryProjectStore implements ProjectStore {
  constructor(
    readonly records = new Map<string, unknown>(),
    readonly journals = new Map<string, MemoryJournal>(),
  ) {}

  load(): Promise<{ key: string; record: unknown }[]> {
    return Promise.resolve([...this.records].map(([key, record]) => ({ key, record: structuredClone(record) })));
  }

  save(key: string, record: unknown): Promise<void> {
    this.records.set(key, structuredClone(record));
    return Promise.resolve();
  }

  open(key: string): Promise<{ journal: MemoryJournal }> {
    if (!this.journals.has(key)) this.journals.set(key, new MemoryJournal());
    return Promise.resolve({ journal: this.journals.get(key)! });
  }

  remove(key: string): Promise<void> {
    this.records.delete(key);
    this.journals.delete(key);
    return Promise.resolve();
  }

  copy(): MemoryProjectStore {
    const journals = [...this.journals].map(([key, journal]) => [key, journal.copy()] as const);
    return new MemoryProjectStore(structuredClone(this.records), new Map(journals));
  }
}
