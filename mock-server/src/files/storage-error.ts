import { StorageError } from '@basekit/engine';

/** Errors that mean the disk (or the user's quota of it) has no room left. */
const NO_ROOM = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A failed write to the data folder as the engine answers it (507, the change not kept): a Node system error becomes
 * a `StorageError` naming its cause; anything else (a bug) stays as it is.
 */
export function storageError(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('E')) return error;
  return new StorageError(NO_ROOM.has(code), `${code}: ${(error as Error).message}`);
}

/** Runs a write to the data folder; its failure rejects with `storageError`. */
export async function storing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw storageError(error);
  }
}
