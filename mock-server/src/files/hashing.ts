import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Hashing } from '@basekit/engine';
import { workerDigests } from './file-worker.js';

/**
 * Node's own MD5 (OpenSSL) and CRC-32 (zlib, Node 20.15+), several times faster than the engine's portable
 * JavaScript; an upload's digests are computed in a worker thread (`digests`), beside the thread that reads it.
 */
export const nodeHashing: Hashing = {
  md5() {
    const hash = createHash('md5');
    return { update: (chunk) => void hash.update(chunk), digest: () => hash.digest('hex') };
  },
  crc32() {
    let crc = 0;
    return {
      update: (chunk) => {
        crc = crc32(chunk, crc);
      },
      digest: () => crc.toString(16).padStart(8, '0'),
    };
  },
  digests: workerDigests,
};
