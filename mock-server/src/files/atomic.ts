import { randomBytes } from 'node:crypto';
import { copyFile, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

const TEMP_PREFIX = '.tmp-';

async function syncFile(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Renames a finished temporary file into place and makes the rename durable (fsync of the folder). */
async function commit(temp: string, path: string): Promise<void> {
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFile(dirname(path), 'r').catch(() => undefined); // some file systems cannot sync a folder
}

const tempBeside = (path: string) => join(dirname(path), `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);

/**
 * Writes a file so that readers see the old content or the whole new one, never a part: the bytes go to a
 * temporary file in the same folder, are flushed to disk, and the file is renamed over the target.
 */
export async function writeAtomic(path: string, data: Uint8Array | string): Promise<void> {
  const temp = tempBeside(path);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await commit(temp, path);
}

/** Copies a file with the same guarantee as `writeAtomic`. */
export async function copyAtomic(from: string, to: string): Promise<void> {
  const temp = tempBeside(to);
  try {
    await copyFile(from, temp);
    await syncFile(temp, 'r+');
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await commit(temp, to);
}

/** Removes temporary files a crash left in `folder` (they were never renamed into place, so nothing refers to them). */
export async function removeLeftovers(folder: string): Promise<void> {
  for (const name of await readdir(folder)) if (name.startsWith(TEMP_PREFIX)) await rm(join(folder, name), { force: true });
}
