import { execFileSync } from 'node:child_process';
import { mkdtemp, open, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageError } from '@basekit/engine';
import { DiskJournal } from '../src/journal/disk-journal.js';

// The journal file on a file system that fills for real (a tmpfs: mounting needs root, which CI has): a record that
// finds no room is refused whole and leaves the file as it was, so the next record starts on a line of its own.

const ROOT = process.getuid?.() === 0;
let mountPoint: string;

beforeAll(async () => {
  if (!ROOT) return;
  mountPoint = await mkdtemp(join(tmpdir(), 'basekit-journal-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
});

afterAll(async () => {
  if (!ROOT) return;
  execFileSync('umount', ['--lazy', mountPoint]); // the journal holds its file open to the end of the process
  await rm(mountPoint, { recursive: true, force: true });
});

describe('DiskJournal on a full disk', () => {
  it.skipIf(!ROOT)(
    'refuses a record it has no room for with a StorageError, whole, and appends after it once there is room (needs root: mounts a tmpfs)',
    async () => {
      const folder = join(mountPoint, 'journal');
      const journal = new DiskJournal(folder, 'never');
      await journal.load();
      for (const n of [1, 2, 3]) await journal.append({ n });
      const log = join(folder, 'journal-0.log');

      const filler = join(mountPoint, 'filler');
      const file = await open(filler, 'w');
      for (;;)
        if (
          await file.write(Buffer.alloc(4096, 1)).then(
            () => false,
            () => true,
          )
        )
          break;
      await file.close();
      const before = await readFile(log);

      const refused = await journal.append({ n: 4, text: 'x'.repeat(400_000) }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(StorageError);
      expect((refused as StorageError).full).toBe(true);
      expect(await readFile(log)).toEqual(before);
      expect((await new DiskJournal(folder, 'never').load()).records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);

      await truncate(filler, 0);
      await journal.append({ n: 5 });
      const reloaded = await new DiskJournal(folder, 'never').load();
      expect(reloaded.records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 5 }]);
      expect(reloaded.dropped).toBeUndefined();
    },
  );
});
