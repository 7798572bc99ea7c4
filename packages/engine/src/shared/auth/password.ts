import { bytesToHex } from '@noble/hashes/utils.js';
import type { Pbkdf2 } from '../capabilities.js';
import type { Moment } from '../moment.js';
import { sameSecret } from './secrets.js';

// PBKDF2-HMAC-SHA256, the same hash in Node and in browsers: WebCrypto's, or the platform's own (the `pbkdf2`
// capability: Node's `crypto.pbkdf2`, cheaper on the server's thread). 10,000 iterations: this is a development
// server, and tests register many users.
const ITERATIONS = 10_000;
const HASH_BYTES = 32;
const encoder = new TextEncoder();

/** The password's PBKDF2 hash, hex: the journal keeps it in place of the password (`Moment.secretOutcome`). */
function derive(moment: Moment, password: string, salt: Uint8Array, pbkdf2: Pbkdf2): Promise<string> {
  return moment.secretOutcome(async () =>
    bytesToHex(await pbkdf2(encoder.encode(password), salt, ITERATIONS, HASH_BYTES)),
  );
}

/** WebCrypto's PBKDF2-HMAC-SHA256: the hash wherever the platform lends none of its own. */
export const webPbkdf2: Pbkdf2 = async (password, salt, iterations, length) => {
  const key = await crypto.subtle.importKey('raw', password as BufferSource, 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    length * 8,
  );
  return new Uint8Array(bits);
};

/** `salt:hash`, both hex, the salt drawn from the request's `moment`; hashed by `pbkdf2` (the project's capability, if any). */
export async function hashPassword(moment: Moment, password: string, pbkdf2: Pbkdf2 = webPbkdf2): Promise<string> {
  const salt = moment.random(16);
  return `${bytesToHex(salt)}:${await derive(moment, password, salt, pbkdf2)}`;
}

export async function verifyPassword(
  moment: Moment,
  password: string,
  stored: string,
  pbkdf2: Pbkdf2 = webPbkdf2,
): Promise<boolean> {
  const [saltHex = '', hash] = stored.split(':');
  const salt = Uint8Array.from(saltHex.match(/../g) ?? [], (h) => parseInt(h, 16));
  return sameSecret(await derive(moment, password, salt, pbkdf2), hash ?? '');
}
