import { openAsBlob } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlobStore, Persistence, StoredBytes } from '@basekit/engine';
import { copyAtomic, removeLeftovers, writeAtomic } from './atomic.js';

const KEY = /^[A-Za-z0-9_-]{1,64}$/;

function checkKey(key: string): string {
  // Keys come from the engine, never from a client; this guards the file system against a bug all the same.
  if (!KEY.test(key)) throw new Error(`invalid storage key "${key}"`);
  return key;
}

/** File bytes in `<dir>/blobs/<key>`, written atomically and served from disk without loading them into memory. */
class DiskBlobStore implements BlobStore {
  constructor(private readonly folder: string) {}

  #path(key: string): string {
    return join(this.folder, checkKey(key));
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return writeAtomic(this.#path(key), bytes);
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

/** Each area's metadata in `<dir>/state/<key>.json`, read once at start-up and replaced atomically on every save. */
class DiskPersistence implements Persistence {
  #saving: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly folder: string,
    private readonly saved: Map<string, unknown>,
  ) {}

  restore(key: string): unknown {
    const json = this.saved.get(key);
    this.saved.delete(key);
    return json;
  }

  save(key: string, json: unknown): Promise<void> {
    const text = JSON.stringify(json); // the state as it is now, whatever happens before the write
    const write = this.#saving.then(() => writeAtomic(join(this.folder, `${checkKey(key)}.json`), text));
    this.#saving = write.catch(() => undefined);
    return write;
  }
}

async function readSaved(folder: string): Promise<Map<string, unknown>> {
  const saved = new Map<string, unknown>();
  for (const name of await readdir(folder)) {
    if (!name.endsWith('.json')) continue;
    const file = join(folder, name);
    try {
      saved.set(name.slice(0, -'.json'.length), JSON.parse(await readFile(file, 'utf8')));
    } catch (error) {
      throw new Error(`cannot read ${file}: ${(error as Error).message}`);
    }
  }
  return saved;
}

/**
 * Durable storage in a data folder (`--data-dir`): file bytes and the areas' metadata survive a restart, and a
 * crash never leaves a half-written file that is then served.
 *
 * @example
 * const { blobs, persistence } = await diskStorage('./data');
 */
export async function diskStorage(dir: string): Promise<{ blobs: BlobStore; persistence: Persistence }> {
  const blobs = join(dir, 'blobs');
  const state = join(dir, 'state');
  for (const folder of [blobs, state]) {
    await mkdir(folder, { recursive: true });
    await removeLeftovers(folder);
  }
  return { blobs: new DiskBlobStore(blobs), persistence: new DiskPersistence(state, await readSaved(state)) };
}
