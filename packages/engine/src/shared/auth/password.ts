import type { Moment } from '../moment.js';
import { sameSecret } from './secrets.js';

// PBKDF2 through WebCrypto so the engine hashes the same way in Node and in browsers.
// 10,000 iterations: this is a development server, and tests register many users.
const ITERATIONS = 10_000;

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The password's PBKDF2 hash, hex: the journal keeps it in place of the password (`Moment.secretOutcome`). */
function derive(moment: Moment, password: string, salt: Uint8Array): Promise<string> {
  return moment.secretOutcome(() => pbkdf2(password, salt));
}

async function pbkdf2(password: string, salt: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations: ITERATIONS },
    key,
    256,
  );
  return toHex(new Uint8Array(bits));
}

/** `salt:hash`, both hex, the salt drawn from the request's `moment`. */
export async function hashPassword(moment: Moment, password: string): Promise<string> {
  const salt = moment.random(16);
  return `${toHex(salt)}:${await derive(moment, password, salt)}`;
}

export async function verifyPassword(moment: Moment, password: string, stored: string): Promise<boolean> {
  const [saltHex = '', hash] = stored.split(':');
  const salt = Uint8Array.from(saltHex.match(/../g) ?? [], (h) => parseInt(h, 16));
  return sameSecret(await derive(moment, password, salt), hash ?? '');
}
