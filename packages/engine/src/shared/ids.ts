const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Where the engine's random bytes come from: every id, salt and link the state keeps is drawn through `randomBytes`,
 * so the journal (`shared/journal.ts`) can record what a request drew and feed the same bytes back when it replays
 * the request at start-up. A secret handed to a client (a refresh token, a generated password) is drawn through
 * `drawSecret`, which the journal never records: the state keeps only its digest or hash, which the journal keeps as
 * a `secretOutcome`.
 */
export const entropy = {
  draw: (length: number): Uint8Array => drawPooled(length),
  drawSecret: (length: number): Uint8Array => drawPooled(length),
};

/**
 * Random bytes are fetched from the platform 4 KiB at a time and handed out in order (as nanoid does): each call of
 * `crypto.getRandomValues` costs several microseconds in Node, and a create draws at least one id.
 */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let used = 0;

function drawPooled(length: number): Uint8Array<ArrayBuffer> {
  if (length > POOL_BYTES) return crypto.getRandomValues(new Uint8Array(length));
  if (used + length > pool.length) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    used = 0;
  }
  used += length;
  return pool.slice(used - length, used);
}

/** `length` random bytes from the engine's one random source. */
export function randomBytes(length: number): Uint8Array {
  return entropy.draw(length);
}

/**
 * `length` random bytes that the journal never sees, for draws that no state keeps and no replay needs: a sample of
 * rows (read requests run beside recorded ones), the moments of random thumbnails and a stream's encryption key (a
 * job runs after its request was answered). Whatever a state-changing request keeps comes from `randomBytes`.
 */
export function unrecordedBytes(length: number): Uint8Array<ArrayBuffer> {
  return drawPooled(length);
}

/** A random number in [0, 1) (48 bits) from `unrecordedBytes`: what `Math.random()` gives, from the engine's source. */
export function unrecordedFraction(): number {
  return unrecordedBytes(6).reduce((n, byte) => n * 256 + byte, 0) / 2 ** 48;
}

/** A random identifier of `length` letters and digits (Parse-style object ids have 10). */
export function newId(length = 10): string {
  let id = '';
  // 62 letters: the modulo bias (256 % 62) is irrelevant for ids that only need to be unique.
  for (const byte of randomBytes(length)) id += ALPHABET[byte % ALPHABET.length];
  return id;
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** A random opaque secret for a client, hex encoded: never written anywhere (the journal does not record its bytes). */
export function newSecret(bytes = 32): string {
  return hex(entropy.drawSecret(bytes));
}

/** A random secret the state keeps as it is (the token of a confirmation link, which the outbox shows), hex encoded. */
export function newKeptSecret(bytes = 32): string {
  return hex(randomBytes(bytes));
}
