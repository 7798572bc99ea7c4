import { randomBytes } from 'node:crypto';
import { type FileHandle, chmod, copyFile, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { storing } from './storage-error.js';
import { WriteBehind } from './write-behind.js';

const TEMP_PREFIX = '.tmp-';

/** Every file of the data folder is its owner's alone (it holds password hashes, rows, files): rw for the owner only. */
export const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/** Creates `folder` (and its parents) for the owner alone; one left by an older version is made so too. */
export async function privateFolder(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  await chmod(folder, FOLDER_MODE);
}

async function syncFile(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Renames a finished temporary file into place and makes the rename durable (fsync of the folder). */
async function renameIntoPlace(temp: string, path: string): Promise<void> {
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFile(dirname(path), 'r').catch(() => undefined); // some file systems cannot sync a folder
}

const tempBeside = (path: string) => join(dirname(path), `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);

/** A file being written beside its target and renamed over it by `commit`. */
export interface AtomicFile<Ended = void> {
  /** Appends `data`; resolves once it may be followed (it is written behind: see `WriteBehind`). */
  write(data: Uint8Array | string): Promise<void>;
  /**
   * After the last write: flushes the file to disk and closes it (so many files in waiting hold no descriptors);
   * answers what its bytes' writer gave at their end (an upload's digests).
   */
  end(): Promise<Ended>;
  /** Ends the file if that was not done yet, and renames it over the target. */
  commit(): Promise<void>;
  /** Removes the temporary file (nothing once committed). */
  abort(): Promise<void>;
}

/** What writes a file's bytes to its descriptor: `WriteBehind`, or the upload worker, which hashes them too. */
export interface FileBytes<Ended> {
  write(chunk: Uint8Array): Promise<void>;
  /** Every byte written (in the OS), or the failure of a write; what the writing gave. */
  end(): Promise<Ended>;
  /** Resolves once no write is under way on the descriptor, so that it may be closed. */
  stop(): Promise<void>;
}

/**
 * Starts writing a file so that readers see the old content or the whole new one, never a part: the bytes go to a
 * temporary file in the same folder through `bytes` (written behind, by default), and `commit` flushes it to disk
 * (unless `sync` is false: then it is in the OS, which a crash of the process does not lose, a power loss may) and
 * renames it over the target. A crash before that leaves only the temporary file, which `removeLeftovers` clears at
 * the next start.
 */
export async function openAtomic(path: string, options?: { sync?: boolean }): Promise<AtomicFile>;
export async function openAtomic<Ended>(
  path: string,
  options: { sync?: boolean; bytes: (handle: FileHandle) => FileBytes<Ended> },
): Promise<AtomicFile<Ended>>;
export async function openAtomic(
  path: string,
  {
    sync = true,
    bytes = (handle) => new WriteBehind(handle),
  }: { sync?: boolean; bytes?: (handle: FileHandle) => FileBytes<unknown> } = {},
): Promise<AtomicFile<unknown>> {
  const temp = tempBeside(path);
  const handle = await storing(() => open(temp, 'wx', FILE_MODE));
  const file = bytes(handle);
  let ended: Promise<unknown> | undefined;
  let committed = false;
  const abort = async () => {
    if (committed) return;
    await file.stop(); // no write under way on a closed handle
    await handle.close().catch(() => undefined); // closing twice is harmless
    await rm(temp, { force: true });
  };
  const end = () =>
    (ended ??= storing(async () => {
      const result = await file.end();
      if (sync) await handle.sync();
      await handle.close();
      return result;
    }).catch(async (error: unknown) => {
      await abort();
      throw error;
    }));
  return {
    write: (data) => storing(() => file.write(typeof data === 'string' ? Buffer.from(data) : data)),
    end,
    async commit() {
      await end();
      committed = true;
      await storing(() => renameIntoPlace(temp, path));
    },
    abort,
  };
}

/** Writes a whole file at once with the guarantee of `openAtomic`. */
export async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const file = await openAtomic(path);
  try {
    await file.write(data);
  } catch (error) {
    await file.abort();
    throw error;
  }
  await file.commit();
}

/** Copies a file with the same guarantee as `writeAtomic`. */
export async function copyAtomic(from: string, to: string): Promise<void> {
  const temp = tempBeside(to);
  try {
    await storing(async () => {
      await copyFile(from, temp);
      await chmod(temp, FILE_MODE); // a copy takes its source's mode, which a file of an older version may have open
      await syncFile(temp, 'r+');
    });
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await storing(() => renameIntoPlace(temp, to));
}

/** Removes temporary files a crash left in `folder` (they were never renamed into place, so nothing refers to them). */
export async function removeLeftovers(folder: string): Promise<void> {
  for (const name of await readdir(folder))
    if (name.startsWith(TEMP_PREFIX)) await rm(join(folder, name), { force: true });
}
