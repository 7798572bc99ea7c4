import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StateRestoreError, type Config, type ProjectStore } from '@basekit/engine';
import { writeAtomic } from '../files/atomic.js';
import { diskStorage } from '../files/disk.js';
import { DiskJournal } from './disk-journal.js';

const KEY = /^[A-Za-z0-9]{1,64}$/;
const RECORD = 'project.json';

/**
 * The projects beyond the default one in a data folder: each in `<dir>/projects/<key>/`, its record in
 * `project.json` and its state beside it (`blobs/`, `state/`, `journal/`, as the default project's at the top of
 * `<dir>`), so no two projects ever share a file, and creating one writes nothing any other project reads.
 */
export class DiskProjectStore implements ProjectStore {
  readonly #root: string;

  constructor(
    dir: string,
    private readonly fsync: Config['fsync'],
  ) {
    this.#root = join(dir, 'projects');
  }

  #folder(key: string): string {
    // Keys come from the engine, never from a client; this guards the file system against a bug all the same.
    if (!KEY.test(key)) throw new Error(`invalid project key "${key}"`);
    return join(this.#root, key);
  }

  async load(): Promise<{ key: string; record: unknown }[]> {
    let keys: string[];
    try {
      keys = (await readdir(this.#root)).filter((name) => KEY.test(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const kept: { key: string; record: unknown }[] = [];
    for (const key of keys) {
      const file = join(this.#folder(key), RECORD);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch {
        continue; // a folder whose record was never written (a crash while the project was created): no project
      }
      try {
        kept.push({ key, record: JSON.parse(text) });
      } catch (error) {
        throw new StateRestoreError(file, `it is not JSON: ${(error as Error).message}`);
      }
    }
    return kept;
  }

  save(key: string, record: unknown): Promise<void> {
    return writeAtomic(join(this.#folder(key), RECORD), JSON.stringify(record));
  }

  async open(key: string) {
    const folder = this.#folder(key);
    return {
      ...(await diskStorage(folder, this.fsync)),
      journal: new DiskJournal(join(folder, 'journal'), this.fsync),
    };
  }

  async remove(key: string): Promise<void> {
    // The record first: a crash in the middle leaves a folder that is no project, never half a project.
    await rm(join(this.#folder(key), RECORD), { force: true });
    await rm(this.#folder(key), { recursive: true, force: true });
  }
}
