// CRC-32 as in zlib, gzip and PNG (IEEE 802.3, reflected polynomial 0xEDB88320) for the `crcHash` of file info,
// where the platform gives no faster one (browsers). Node uses zlib's through the `hashing` capability.
import type { Hasher } from '../../shared/capabilities.js';

const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/**
 * CRC-32 over content that arrives in pieces, as 8 lowercase hex digits.
 *
 * @example
 * const crc = new Crc32();
 * crc.update(new TextEncoder().encode('123456789'));
 * crc.digest(); // 'cbf43926'
 */
export class Crc32 implements Hasher {
  #crc = 0xffffffff;

  update(chunk: Uint8Array): void {
    let crc = this.#crc;
    for (let i = 0; i < chunk.length; i++) crc = TABLE[(crc ^ chunk[i]!) & 0xff]! ^ (crc >>> 8);
    this.#crc = crc;
  }

  digest(): string {
    return ((this.#crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
  }
}
