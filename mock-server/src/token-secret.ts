import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FILE_MODE } from './files/atomic.js';

/** 32 random bytes, base64url: what a whole secret looks like (anything else in the file is a write cut short). */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/**
 * The server's token secret (`Capabilities.tokenSecret`), drawn at random. With a data folder it is kept there, in
 * `token-secret` (readable by the server's user only), so that access tokens outlive a restart as the rest of the
 * state does; one that is missing or cut short is drawn again (the tokens signed before are then refused, and their
 * clients log in again or renew).
 */
export async function tokenSecret(dataDir: string | undefined): Promise<string> {
  const drawn = randomBytes(32).toString('base64url');
  if (!dataDir) return drawn;
  const file = join(dataDir, 'token-secret');
  const kept = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (kept !== undefined && SECRET.test(kept)) return kept;
  await writeFile(file, drawn, { mode: FILE_MODE });
  await chmod(file, FILE_MODE);
  return drawn;
}
