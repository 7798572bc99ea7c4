import { openAsBlob } from 'node:fs';
import { type FileHandle, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore, BlobWriter, Config, FileDigests, Persistence, StoredBytes } from '@basekit/engine';
import { DiskJournal } from '../journal/disk-journal.js';
import { copyAtomic, openAtomic, privateFolder, removeLeftovers } from './atomic.js';
import { WorkerContent } from './file-worker.js';

const KEY = /^[A-Za-z0-9_-]{1,64}$/;

function checkKey(key: string): string {
  // Keys come from the engine, never from a client; this guards the file system against a bug all the same.
  if (!KEY.test(key)) throw new Error(`invalid storage key "${key}"`);
  return key;
}

/**
 * File bytes in `<dir>/blobs/<key>`: an upload is written to a temporary file as it arrives and renamed into place on
 * commit, and served from disk without loading it into memory.
 */
class DiskBlobStore implements BlobStore {
  constructor(
    private readonly folder: string,
    /** Whether each file is flushed to the disk before it is committed (the config's `fsync`). */
    private readonly sync: boolean,
  ) {}

  #path(key: string): string {
    return join(this.folder, checkKey(key));
  }

  create(key: string): Promise<BlobWriter> {
    return openAtomic(this.#path(key), { sync: this.sync });
  }

  /** An upload's file: the worker thread hashes its bytes while the thread pool writes them (`WorkerContent`). */
  createHashed(key: string): Promise<BlobWriter<FileDigests>> {
    return openAtomic(this.#path(key), {
      sync: this.sync,
      bytes: (handle: FileHandle) => new WorkerContent(handle.fd),
    });
  }

  async get(key: string): Promise<StoredBytes | undefined> {
    try {
      return await openAsBlob(this.#path(key));
    } catch {
      return undefined; // no such file
    }
  }

  delete(key: string): Promise<void> {
    return rm(this.#path(key), { force: true });
  }

  copy(from: string, to: string): Promise<void> {
    return copyAtomic(this.#path(from), this.#path(to));
  }
}

/**
 * A saved state file that cannot be restored (unreadable, not JSON, or not the shape its area keeps); the message
 * names the file and what to do. Nothing has written to the file: it stays as it was for its owner to look at.
 */
export class SavedStateError extends Error {
  override name = 'SavedStateError';

  constructor(file: string, problem: string) {
    super(
      `${file} cannot be restored (${problem}). It is left as it is: repair it or put back a copy, or move it away to start this data folder empty.`,
    );
  }
}

/** What an area kept: the JSON saved whole (undefined: nothing yet), the changes after it, and where they are. */
interface Kept {
  json: () => unknown;
  changes: unknown[];
  where: string;
}

/**
 * Each area's metadata in `<dir>/state/<key>/`, a `DiskJournal` of its own: the JSON saved whole is its snapshot and
 * each change appended after it a record (one checksummed line, a torn last one cut back by the first write after a
 * start, room set aside ahead so that a full disk refuses a change whole), so a change writes what it changed. A
 * folder of an earlier version holds `<key>.json` (the whole, rewritten on every change): it is read as the saved JSON
 * while the journal has no snapshot, and removed once one is written.
 */
class DiskPersistence implements Persistence {
  readonly #journals = new Map<string, DiskJournal>();
  /** The last write asked for: each starts once the one before it has ended, so writes land in call order. */
  #last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: string,
    private readonly fsync: Config['fsync'],
    private readonly kept: Map<string, Kept>,
  ) {}

  restore<T>(key: string, parse: (json: unknown, changes: readonly unknown[]) => T): T | undefined {
    const kept = this.kept.get(key);
    this.kept.delete(key);
    if (kept === undefined) return undefined;
    try {
      return parse(kept.json(), kept.changes);
    } catch (error) {
      throw new SavedStateError(kept.where, (error as Error).message);
    }
  }

  save(key: string, json: unknown): Promise<void> {
    const journal = this.journal(key);
    return this.#inTurn(async () => {
      await journal.compact(json);
      await rm(this.#legacy(key), { force: true });
    });
  }

  append(key: string, change: unknown): Promise<void> {
    const journal = this.journal(key);
    return this.#inTurn(() => journal.append(change));
  }

  settled(): Promise<void> {
    return this.#last.then(() => undefined);
  }

  #inTurn(write: () => Promise<void>): Promise<void> {
    const turn = this.#last.then(write);
    this.#last = turn.catch(() => undefined);
    return turn;
  }

  /** The journal of `key` (the one that loaded it at start-up, so that its first write cuts what it found torn). */
  journal(key: string): DiskJournal {
    let journal = this.#journals.get(key);
    if (!journal) {
      journal = new DiskJournal(join(this.folder, checkKey(key)), this.fsync);
      this.#journals.set(key, journal);
    }
    return journal;
  }

  #legacy(key: string): string {
    return join(this.folder, `${checkKey(key)}.json`);
  }

  /** Reads what every area kept (`<key>/` journals, `<key>.json` of an earlier version). */
  async load(): Promise<void> {
    const keys = new Set<string>();
    for (const entry of await readdir(this.folder, { withFileTypes: true })) {
      const key = entry.isDirectory() ? entry.name : entry.name.endsWith('.json') ? entry.name.slice(0, -5) : '';
      if (KEY.test(key)) keys.add(key);
    }
    for (const key of keys) {
      const journal = this.journal(key);
      const { snapshot, records } = await journal.load();
      if (snapshot !== undefined) {
        this.kept.set(key, { json: () => snapshot, changes: records, where: journal.location });
        continue;
      }
      const file = this.#legacy(key);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
          throw new SavedStateError(file, (error as Error).message);
        if (records.length > 0) throw new SavedStateError(journal.location, 'changes without the state they follow');
        continue;
      }
      const where = records.length > 0 ? `${file} and ${journal.location}` : file;
      this.kept.set(key, { json: () => JSON.parse(text), changes: records, where });
    }
  }
}

/**
 * Durable storage in a data folder (`--data-dir`): file bytes and the areas' metadata survive a restart, and a
 * crash never leaves a half-written file that is then served. File bytes are flushed to the disk before they are
 * committed with `fsync: "always"`; with `"never"` they are handed to the OS, as journal records are.
 *
 * @example
 * const { blobs, persistence } = await diskStorage('./data', 'never');
 */
export async function diskStorage(
  dir: string,
  fsync: Config['fsync'],
): Promise<{ blobs: BlobStore; persistence: Persistence }> {
  const blobs = join(dir, 'blobs');
  const state = join(dir, 'state');
  // The data folder itself is made for its owner alone when it is new; one given that exists keeps its mode (it may be
  // a volume or a folder of the user's), while every folder inside is private.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const folder of [blobs, state]) {
    await privateFolder(folder);
    await removeLeftovers(folder);
  }
  const persistence = new DiskPersistence(state, fsync, new Map());
  await persistence.load();
  return { blobs: new DiskBlobStore(blobs, fsync === 'always'), persistence };
}
