// MD5 (RFC 1321) for the `md5Hash` of file info. WebCrypto has no MD5 and no small, well-kept pure-JS MD5 is
// installed, so this compact implementation keeps the engine browser-safe. Checked against node:crypto in the tests.

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
 * The MD5 digest of `bytes` as 32 lowercase hex digits.
 *
 * @example
 * md5Hex(new TextEncoder().encode('abc')); // '900150983cd24fb0d6963f7d28e17f72'
 */
export function md5Hex(bytes: Uint8Array): string {
  const state = Int32Array.of(0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476);
  const whole = bytes.length - (bytes.length % 64);
  compress(state, bytes.subarray(0, whole));
  // The tail, the 0x80 marker, zero padding and the bit length (little-endian, 64 bits) in one or two blocks.
  const rest = bytes.length - whole;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  tail.set(bytes.subarray(whole));
  tail[rest] = 0x80;
  const view = new DataView(tail.buffer);
  view.setUint32(tail.length - 8, (bytes.length * 8) >>> 0, true);
  view.setUint32(tail.length - 4, Math.floor(bytes.length / 2 ** 29), true);
  compress(state, tail);
  let hex = '';
  for (const byte of new Uint8Array(state.buffer)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
