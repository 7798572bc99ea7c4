import { openAsBlob } from 'node:fs';
import { type FileHandle, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore, BlobWriter, Config, FileDigests, Persistence, StoredBytes } from '@basekit/engine';
import { copyAtomic, openAtomic, privateFolder, removeLeftovers, writeAtomic } from './atomic.js';
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

/** Each area's metadata in `<dir>/state/<key>.json`, read once at start-up and replaced atomically on every save. */
class DiskPersistence implements Persistence {
  #saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: string,
    private readonly saved: Map<string, string>,
  ) {}

  #file(key: string): string {
    return join(this.folder, `${checkKey(key)}.json`);
  }

  restore<T>(key: string, parse: (json: unknown) => T): T | undefined {
    const text = this.saved.get(key);
    this.saved.delete(key);
    if (text === undefined) return undefined;
    try {
      return parse(JSON.parse(text));
    } catch (error) {
      throw new SavedStateError(this.#file(key), (error as Error).message);
    }
  }

  save(key: string, json: unknown): Promise<void> {
    const text = JSON.stringify(json); // the state as it is now, whatever happens before the write
    const write = this.#saving.then(() => writeAtomic(this.#file(key), text));
    this.#saving = write.catch(() => undefined);
    return write;
  }
}

/** The text of every `<key>.json` in the folder, by key. */
async function readSaved(folder: string): Promise<Map<string, string>> {
  const saved = new Map<string, string>();
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.json')) continue;
    const file = join(folder, name);
    try {
      saved.set(name.slice(0, -'.json'.length), await readFile(file, 'utf8'));
    } catch (error) {
      throw new SavedStateError(file, (error as Error).message);
    }
  }
  return saved;
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
  return {
    blobs: new DiskBlobStore(blobs, fsync === 'always'),
    persistence: new DiskPersistence(state, await readSaved(state)),
  };
}
