// Files benchmark: MD5 and CRC-32 throughput of the engine's portable JavaScript (what browsers run) against Node's
// own (the `hashing` capability the server gives), and the server's resident memory while a 1 GiB upload comes in
// and goes out again, with --data-dir and in memory mode, against the file's size. Targets: with --data-dir at most
// 64 MiB more; in memory mode at most 1.1× the file. First, a folder listing whose subtree holds 100,000 files
// (files-listing.ts): kept totals against the subtree walked, as before folders kept them. `LISTING_ONLY=1` stops there.
// Then one change of the tree (upload, rename, delete) at 1,000 and at 100,000 files (files-changes.ts); `TREE_ONLY=1`
// stops there.
// Run: `npm run bench -w @basekit/mock-server -- files` or `node --conditions=@basekit/source --import tsx mock-server/bench/files.bench.ts`.
import { randomBytes } from 'node:crypto';
import type { Hashing } from '@basekit/engine';
import { Crc32 } from '../../packages/engine/src/areas/files/crc32.js';
import { Md5 } from '../../packages/engine/src/areas/files/md5.js';
import { nodeHashing } from '../src/files/hashing.js';
import { benchChanges } from './files-changes.js';
import { benchListing } from './files-listing.js';
import { measureUploadMemory } from '../test/files/upload-memory.js';

const MiB = 1024 * 1024;
const HASHED = 128 * MiB;
const UPLOAD = 1024 * MiB;
const portable: Hashing = { md5: () => new Md5(), crc32: () => new Crc32() };

/** MiB/s of one hasher over `HASHED` bytes fed 64 KiB at a time (what a network gives), best of 3 runs. */
function throughput(make: () => ReturnType<Hashing['md5']>, data: Uint8Array): number {
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const hasher = make();
    for (let offset = 0; offset < data.length; offset += 64 * 1024)
      hasher.update(data.subarray(offset, offset + 64 * 1024));
    hasher.digest();
    best = Math.min(best, performance.now() - started);
  }
  return data.length / MiB / (best / 1000);
}

await benchListing();
if (process.env['LISTING_ONLY']) process.exit(0);
await benchChanges();
if (process.env['TREE_ONLY']) process.exit(process.exitCode ?? 0);

const data = new Uint8Array(randomBytes(HASHED));
console.log(`Hashing ${HASHED / MiB} MiB in 64 KiB pieces (best of 3; the event loop is held while it runs)\n`);
console.log(
  '| digest | portable JavaScript | Node (crypto / zlib) | Node faster by | event loop held per 200 MiB, JS → Node |',
);
console.log('|---|---|---|---|---|');
for (const digest of ['md5', 'crc32'] as const) {
  const js = throughput(() => portable[digest](), data);
  const node = throughput(() => nodeHashing[digest](), data);
  const held = (rate: number) => `${Math.round((200 / rate) * 1000)} ms`;
  console.log(
    `| ${digest === 'md5' ? 'MD5' : 'CRC-32'} | ${js.toFixed(0)} MiB/s | ${node.toFixed(0)} MiB/s | ${(node / js).toFixed(1)}× | ${held(js)} → ${held(node)} |`,
  );
}

console.log(
  `\nServer memory for a ${UPLOAD / MiB} MiB upload and its download (a server process of its own; resident memory from /proc)\n`,
);
console.log('| storage | RSS before | upload: peak rise | vs the file | target | download: peak rise | upload speed |');
console.log('|---|---|---|---|---|---|---|');
let failed = false;
for (const [label, dataDir, limit, target] of [
  ['--data-dir', true, 64 * MiB, 'at most 64 MiB'],
  ['memory', false, 1.1 * UPLOAD, 'at most 1.1×'],
] as const) {
  const result = await measureUploadMemory(UPLOAD, { dataDir });
  const met = result.intact && result.uploadGrowth <= limit;
  failed ||= !met;
  const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;
  console.log(
    `| ${label} | ${mib(result.before)} | ${mib(result.uploadGrowth)} | ${(result.uploadGrowth / UPLOAD).toFixed(2)}× | ${target}: ${met ? 'met' : 'NOT met'} | ${mib(result.downloadGrowth)} | ${result.uploadMiBps.toFixed(0)} MiB/s |`,
  );
}
process.exitCode = failed ? 1 : 0;
