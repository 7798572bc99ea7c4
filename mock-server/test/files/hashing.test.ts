import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Hasher } from '@basekit/engine';
import { Crc32 } from '../../../packages/engine/src/areas/files/crc32.js';
import { Md5 } from '../../../packages/engine/src/areas/files/md5.js';
import { nodeHashing } from '../../src/files/hashing.js';

/** Feeds `bytes` to a hasher in pieces of the given sizes (the last piece takes the rest). */
function digestInPieces(hasher: Hasher, bytes: Uint8Array, sizes: readonly number[]): string {
  let offset = 0;
  for (const size of sizes) {
    hasher.update(bytes.subarray(offset, offset + size));
    offset += size;
  }
  hasher.update(bytes.subarray(offset));
  return hasher.digest();
}

const md5Of = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');
const crcOf = (bytes: Uint8Array) => crc32(bytes).toString(16).padStart(8, '0');

describe('MD5 and CRC-32 over content in pieces', () => {
  const bytes = new Uint8Array(randomBytes(5000));
  // Lengths around the 64-byte block and the 56-byte padding edge, and pieces that split blocks anywhere.
  const cases: [number, number[]][] = [
    [0, []],
    [1, []],
    [55, []],
    [56, []],
    [63, []],
    [64, []],
    [65, []],
    [119, [1]],
    [128, [64]],
    [1000, [3, 61, 1, 200]],
    [5000, [63, 65, 0, 127, 129]],
  ];

  for (const [length, sizes] of cases) {
    it(`gives node:crypto's and zlib's digests for ${length} bytes in pieces ${JSON.stringify(sizes)}`, () => {
      const content = bytes.subarray(0, length);
      for (const hashing of [{ md5: () => new Md5(), crc32: () => new Crc32() }, nodeHashing]) {
        expect(digestInPieces(hashing.md5(), content, sizes)).toBe(md5Of(content));
        expect(digestInPieces(hashing.crc32(), content, sizes)).toBe(crcOf(content));
      }
    });
  }

  it('gives the known test vectors', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    const md5 = new Md5();
    md5.update(text('ab'));
    md5.update(text('c'));
    expect(md5.digest()).toBe('900150983cd24fb0d6963f7d28e17f72');
    const crc = new Crc32();
    crc.update(text('123456789'));
    expect(crc.digest()).toBe('cbf43926');
  });
});

describe("the server's digests in a worker thread", () => {
  it('gives the same digests across its 1 MiB batches, for contents hashed side by side', async () => {
    const MiB = 1024 * 1024;
    const big = new Uint8Array(randomBytes(9 * MiB + 12_345));
    const small = big.subarray(0, 100);
    const [one, two, empty] = [nodeHashing.digests!(), nodeHashing.digests!(), nodeHashing.digests!()];
    // Pieces that straddle batches, interleaved with another content's.
    for (let at = 0; at < big.length; at += 700_001) {
      await one.update(big.subarray(at, at + 700_001));
      if (at === 0) await two.update(small);
    }
    expect(await one.end()).toEqual({ md5: md5Of(big), crc: crcOf(big) });
    expect(await two.end()).toEqual({ md5: md5Of(small), crc: crcOf(small) });
    expect(await empty.end()).toEqual({ md5: md5Of(new Uint8Array(0)), crc: crcOf(new Uint8Array(0)) });
    expect(await one.end()).toEqual({ md5: md5Of(big), crc: crcOf(big) }); // the same again
  });

  it('keeps no process alive once the digests are given', async () => {
    // 3 MiB: full batches go to the worker. A process that used it must still end by itself once its own handles
    // are gone (a server closed, a test runner's global set-up torn down): the interval stands for the server's
    // socket; after it the script has nothing left to do, and would be killed at the time-out.
    const hashing = fileURLToPath(new URL('../../src/files/hashing.ts', import.meta.url));
    const script = `
      const { nodeHashing } = await import(${JSON.stringify(hashing)});
      const server = setInterval(() => {}, 1000);
      const bytes = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => i % 251);
      const digests = nodeHashing.digests();
      await digests.update(bytes);
      console.log(JSON.stringify(await digests.end()));
      clearInterval(server);
    `;
    const file = join(await mkdtemp(join(tmpdir(), 'basekit-digests-')), 'digests.mjs');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@basekit/source', '--import', 'tsx', file],
      { timeout: 20_000 },
    );
    const bytes = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => i % 251);
    expect(JSON.parse(stdout)).toEqual({ md5: md5Of(bytes), crc: crcOf(bytes) });
  });
});
