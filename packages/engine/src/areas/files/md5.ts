// MD5 (RFC 1321) for the `md5Hash` of file info where the platform gives no faster one (browsers: WebCrypto has
// no MD5). Node uses its own crypto through the `hashing` capability. Checked against node:crypto in the tests.
import type { Hasher } from '../../shared/capabilities.js';

const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);

const rotl = (x: number, n: number) => (x << n) | (x >>> (32 - n));

/** Runs the compression function over every 64-byte block of `bytes` (a multiple of 64 long). */
function compress(state: Int32Array, bytes: Uint8Array): void {
  const x = new Int32Array(16);
  for (let offset = 0; offset < bytes.length; offset += 64) {
    for (let j = 0; j < 16; j++) {
      const p = offset + j * 4;
      x[j] = bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24);
    }
    let a = state[0]!;
    let b = state[1]!;
    let c = state[2]!;
    let d = state[3]!;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const next = (b + rotl((a + f + K[i]! + x[g]!) | 0, SHIFTS[(i >> 4) * 4 + (i & 3)]!)) | 0;
      a = d;
      d = c;
      c = b;
      b = next;
    }
    state[0] = (state[0]! + a) | 0;
    state[1] = (state[1]! + b) | 0;
    state[2] = (state[2]! + c) | 0;
    state[3] = (state[3]! + d) | 0;
  }
}

/**
 * MD5 over content that arrives in pieces, as 32 lowercase hex digits.
 *
 * @example
 * const md5 = new Md5();
 * md5.update(new TextEncoder().encode('ab'));
 * md5.update(new TextEncoder().encode('c'));
 * md5.digest(); // '900150983cd24fb0d6963f7d28e17f72'
 */
export class Md5 implements Hasher {
  readonly #state = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476);
  /** The bytes after the last whole 64-byte block. */
  readonly #block = new Uint8Array(64);
  #pending = 0;
  #length = 0;

  update(chunk: Uint8Array): void {
    this.#length += chunk.length;
    let offset = 0;
    if (this.#pending > 0) {
      offset = Math.min(64 - this.#pending, chunk.length);
      this.#block.set(chunk.subarray(0, offset), this.#pending);
      this.#pending += offset;
      if (this.#pending < 64) return;
      compress(this.#state, this.#block);
      this.#pending = 0;
    }
    const whole = chunk.length - ((chunk.length - offset) % 64);
    compress(this.#state, chunk.subarray(offset, whole));
    this.#block.set(chunk.subarray(whole));
    this.#pending = chunk.length - whole;
  }

  digest(): string {
    // The tail, the 0x80 marker, zero padding and the bit length (little-endian, 64 bits) in one or two blocks.
    const rest = this.#pending;
    const tail = new Uint8Array(rest < 56 ? 64 : 128);
    tail.set(this.#block.subarray(0, rest));
    tail[rest] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, (this.#length * 8) >>> 0, true);
    view.setUint32(tail.length - 4, Math.floor(this.#length / 2 ** 29), true);
    compress(this.#state, tail);
    let hex = '';
    for (const byte of new Uint8Array(this.#state.buffer)) hex += byte.toString(16).padStart(2, '0');
    return hex;
  }
}
