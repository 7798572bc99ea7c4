import type { Persistence } from '../../src/shared/capabilities.js';

/** What a `MemoryPersistence` keeps of one key: the JSON saved whole and the changes appended after it. */
interface KeptKey {
  json: unknown;
  changes: unknown[];
}

/**
 * Persistence in memory, copied as it is written (as a disk keeps the JSON of the moment), with counts of the saves
 * and appends and the JSON of each change: `copy()` is another holding the same, for an engine to restart from.
 * `refuse` makes the next writes reject with the given error (a full disk), leaving what was kept as it was.
 */
export class MemoryPersistence implements Persistence {
  saves = 0;
  /** The JSON text of each change appended, in order. */
  readonly appended: string[] = [];
  refuse: Error | undefined;

  constructor(readonly kept = new Map<string, KeptKey>()) {}

  restore<T>(key: string, parse: (json: unknown, changes: readonly unknown[]) => T): T | undefined {
    const kept = this.kept.get(key);
    return kept && parse(structuredClone(kept.json), structuredClone(kept.changes));
  }

  save(key: string, json: unknown): Promise<void> {
    if (this.refuse) return Promise.reject(this.refuse);
    this.saves++;
    this.kept.set(key, { json: structuredClone(json), changes: [] });
    return Promise.resolve();
  }

  append(key: string, change: unknown): Promise<void> {
    const kept = this.kept.get(key);
    if (!kept) return Promise.reject(new Error(`a change of "${key}" before anything was saved`));
    if (this.refuse) return Promise.reject(this.refuse);
    this.appended.push(JSON.stringify(change));
    kept.changes.push(structuredClone(change));
    return Promise.resolve();
  }

  settled(): Promise<void> {
    return Promise.resolve();
  }

  copy(): MemoryPersistence {
    return new MemoryPersistence(structuredClone(this.kept));
  }
}
