// CRC-32 as in zlib, gzip and PNG (IEEE 802.3, reflected polynomial 0xEDB88320) for the `crcHash` of file info.

const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/**
 * The CRC-32 of `bytes` as 8 lowercase hex digits.
 *
 * @example
 * crc32Hex(new TextEncoder().encode('123456789')); // 'cbf43926'
 */
export function crc32Hex(bytes: Uint8Array): string {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, '0');
}
