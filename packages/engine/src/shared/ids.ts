import { bytesToHex } from '@noble/hashes/utils.js';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Where random bytes come from: a request's `Moment` (`c.env.moment`), whose draws the journal keeps and hands back
 * when it replays the request, or `unrecorded` for what no kept state holds.
 */
export interface RandomSource {
  random(length: number): Uint8Array;
}

/** Where the bytes of a secret handed to a client come from: a request's `Moment`, which never keeps them. */
export interface SecretSource {
  secretBytes(length: number): Uint8Array;
}

/**
 * Random bytes are fetched from the platform 4 KiB at a time and handed out in order (as nanoid does): each call of
 * `crypto.getRandomValues` costs several microseconds in Node, and a create draws at least one id.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let used = 0;

/** `length` random bytes from the platform, which no journal sees: what every `Moment` draws from. */
export function unrecordedBytes(length: number): Uint8Array<ArrayBuffer> {
  if (length > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(length));
  if (used + length > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    used = 0;
  }
  used += length;
  return pool.slice(used - length, used);
}

/** The platform's random source, for what no kept state holds and no replay needs (a project's store key). */
export const unrecorded: RandomSource & SecretSource = { random: unrecordedBytes, secretBytes: unrecordedBytes };

/**
/**
 * A random number in [0, 1) (48 bits) from `unrecordedBytes`, for draws that no state keeps and no replay needs: a
 * sample of rows (read requests), the moments of random thumbnails (a job runs after its request was answered).
 */
export function unrecordedFraction(): number {
  return unrecordedBytes(6).reduce((n, byte) => n * 256 + byte, 0) / 2 ** 48;
}

/**
 * A random identifier of `length` letters and digits (Parse-style object ids have 10).
 *
 * @example
 * const userId = newId(c.env.moment, 24);
 */
export function newId(source: RandomSource, length = 10): string {
  let id = '';
  // 62 letters: the modulo bias (256 % 62) is irrelevant for ids that only need to be unique.
  for (const byte of source.random(length)) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

// Hex by noble's table (the engine's SHA-256 already): about a tenth of the time of a `toString(16)` a byte.
const hex = bytesToHex;

/** A random opaque secret for a client, hex encoded: never written anywhere (the journal does not keep its bytes). */
export function newSecret(source: SecretSource, bytes = 32): string {
  return hex(source.secretBytes(bytes));
}

/** A random secret the state keeps as it is (the token of a confirmation link, which the outbox shows), hex encoded. */
export function newKeptSecret(source: RandomSource, bytes = 32): string {
  return hex(source.random(bytes));
}
