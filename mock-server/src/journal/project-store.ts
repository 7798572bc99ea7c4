import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { StateRestoreError, type Config, type ProjectStore } from '@basekit/engine';
import { writeAtomic } from '../files/atomic.js';
import { diskStorage } from '../files/disk.js';
import { DiskJournal } from './disk-journal.js';

const KEY = /^[A-Za-z0-9]{1,64}$/;

/**
 * The projects beyond the default one in a data folder: their list in `<dir>/projects.json`, and each project's
 * state in `<dir>/projects/<key>/` (`blobs/`, `state/`, `journal/`, as the default project's at the top of `<dir>`),
 * so no two projects ever share a file.
 */
export class DiskProjectStore implements ProjectStore {
  constructor(
    private readonly dir: string,
    private readonly fsync: Config['fsync'],
  ) {}

  get #list(): string {
    return join(this.dir, 'projects.json');
  }

  #folder(key: string): string {
    // Keys come from the engine, never from a client; this guards the file system against a bug all the same.
    if (!KEY.test(key)) throw new Error(`invalid project key "${key}"`);
    return join(this.dir, 'projects', key);
  }

  async load(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.#list, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StateRestoreError(this.#list, (error as Error).message);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new StateRestoreError(this.#list, `it is not JSON: ${(error as Error).message}`);
    }
  }

  save(json: unknown): Promise<void> {
    return writeAtomic(this.#list, JSON.stringify(json));
  }

  async open(key: string) {
    const folder = this.#folder(key);
    return { ...(await diskStorage(folder)), journal: new DiskJournal(join(folder, 'journal'), this.fsync) };
  }

  remove(key: string): Promise<void> {
    return rm(this.#folder(key), { recursive: true, force: true });
  }
}
