import { beforeEach, expect, it } from 'vitest';
import { measureUploadMemory } from './upload-memory.js';

const MiB = 1024 * 1024;
const SIZE = 256 * MiB;
const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;

// The server is a process of its own (measured from /proc), so the figures are its own, not the test's. Resident
// memory lags what is live by what the collector has not taken back yet: the allowances below are for that lag, and
// still far below what holding the file twice (2× it, as uploads did before they streamed) would cost.

beforeEach(({ skip }) =>
  skip(process.platform !== 'linux', "Linux only: a process's resident memory is read from /proc"),
);

it('keeps a server with --data-dir within 64 MiB more memory while a 256 MiB upload comes in and goes out', async () => {
  const result = await measureUploadMemory(SIZE, { dataDir: true });
  console.log(
    `--data-dir, ${mib(SIZE)} upload: server RSS ${mib(result.before)} before, +${mib(result.uploadGrowth)} uploading, +${mib(result.downloadGrowth)} downloading`,
  );
  expect(result.intact).toBe(true);
  expect(result.uploadGrowth).toBeLessThan(64 * MiB);
  expect(result.downloadGrowth).toBeLessThan(64 * MiB);
}, 120_000);

it('keeps a server in memory mode within 1.1× the file (plus 32 MiB) while a 256 MiB upload comes in and goes out', async () => {
  const result = await measureUploadMemory(SIZE);
  console.log(
    `memory mode, ${mib(SIZE)} upload: server RSS ${mib(result.before)} before, +${mib(result.uploadGrowth)} uploading (${(result.uploadGrowth / SIZE).toFixed(2)}× the file), +${mib(result.downloadGrowth)} downloading`,
  );
  expect(result.intact).toBe(true);
  expect(result.uploadGrowth).toBeLessThan(1.1 * SIZE + 32 * MiB);
  // The download serves the chunks as they are stored, without copying them.
  expect(result.downloadGrowth).toBeLessThan(64 * MiB);
}, 120_000);
