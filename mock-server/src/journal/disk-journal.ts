import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { StateRestoreError, type Journal, type JournalContents } from '@basekit/engine';
import { removeLeftovers, writeAtomic } from '../files/atomic.js';

const SNAPSHOT = 'snapshot.json';
const PREVIOUS = 'snapshot.previous.json';
const LOG = /^journal-(\d+)\.log$/;

/** How a snapshot is kept on disk: the state, and which journal file holds the records after it. */
interface SnapshotFile {
  basekitJournal: 1;
  /** The records after this snapshot are in `journal-<generation>.log`. */
  generation: number;
  state: unknown;
}

const logName = (generation: number) => `journal-${generation}.log`;

/** One record as a line: its CRC-32 (8 hex digits), a space, its JSON. A crash mid-write leaves a line that fails the check. */
function line(record: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(record));
  return Buffer.concat([Buffer.from(`${crc32(json).toString(16).padStart(8, '0')} `), json, Buffer.from('\n')]);
}

/** The records of a journal file, and how many of its bytes hold them (what follows is a torn last record). */
function parseLog(bytes: Buffer, file: string): { records: unknown[]; goodBytes: number } {
  const records: unknown[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf(0x0a, at);
    const last = end === -1 || end === bytes.length - 1;
    const text = bytes.subarray(at, end === -1 ? bytes.length : end);
    const record = end === -1 ? undefined : checked(text);
    if (record === undefined) {
      if (last) break; // torn by a crash while it was written: it was never answered
      throw new StateRestoreError(file, `record ${records.length + 1} is damaged and records follow it`);
    }
    records.push(record.value);
    at = end + 1;
  }
  return { records, goodBytes: at };
}

function checked(text: Buffer): { value: unknown } | undefined {
  if (text.length < 10 || text[8] !== 0x20) return undefined;
  const json = text.subarray(9);
  if (crc32(json).toString(16).padStart(8, '0') !== text.subarray(0, 8).toString()) return undefined;
  try {
    return { value: JSON.parse(json.toString()) };
  } catch {
    return undefined;
  }
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateRestoreError(file, (error as Error).message);
  }
}

function parseSnapshot(bytes: Buffer, file: string): SnapshotFile {
  let json: Partial<SnapshotFile>;
  try {
    json = JSON.parse(bytes.toString()) as Partial<SnapshotFile>;
  } catch (error) {
    throw new StateRestoreError(file, `not JSON: ${(error as Error).message}`);
  }
  if (
    typeof json !== 'object' ||
    json === null ||
    json.basekitJournal !== 1 ||
    !Number.isSafeInteger(json.generation)
  ) {
    throw new StateRestoreError(file, 'not a basekit snapshot');
  }
  return json as SnapshotFile;
}

/**
 * The journal in a data folder (`<dir>/journal/`): `snapshot.json` (written atomically; the one before it kept as
 * `snapshot.previous.json`) and `journal-<n>.log`, one checksummed line per record, appended with one `write` before
 * the change is answered. A compaction starts a new journal file named in the new snapshot, so a crash at any
 * moment leaves either the old snapshot with its journal or the new one with its (empty) journal.
 */
export class DiskJournal implements Journal {
  readonly location: string;
  #generation = 0;
  #fd: number | undefined;

  /** @param fsync `always`: each record is flushed to the disk before `append` resolves (power loss); `never`: written to the OS only (crash, SIGKILL). */
  constructor(
    private readonly folder: string,
    private readonly fsync: 'never' | 'always',
  ) {
    this.location = folder;
  }

  async load(): Promise<JournalContents> {
    await mkdir(this.folder, { recursive: true });
    await removeLeftovers(this.folder);
    const snapshotFile = join(this.folder, SNAPSHOT);
    // A crash in the middle of a compaction may leave only the previous snapshot, whose journal is still there.
    let bytes = await readOptional(snapshotFile);
    let file = snapshotFile;
    if (bytes === undefined) {
      file = join(this.folder, PREVIOUS);
      bytes = await readOptional(file);
    }
    const snapshot = bytes && parseSnapshot(bytes, file);
    this.#generation = snapshot?.generation ?? 0;
    const log = join(this.folder, logName(this.#generation));
    const logBytes = (await readOptional(log)) ?? Buffer.alloc(0);
    const { records, goodBytes } = parseLog(logBytes, log);
    await this.#checkNoLaterRecords();
    const dropped = logBytes.length - goodBytes;
    // The torn tail goes, so the next record starts on a line of its own.
    if (dropped > 0) await truncate(log, goodBytes);
    await this.#removeOtherLogs();
    this.#fd = openSync(log, 'a');
    return {
      snapshot: snapshot?.state,
      records,
      ...(dropped > 0 && {
        dropped: `${dropped} bytes of a torn last record in ${log} (a crash while it was written; it was never answered)`,
      }),
    };
  }

  append(record: unknown): Promise<void> {
    if (this.#fd === undefined) return Promise.reject(new Error('the journal is not loaded'));
    writeSync(this.#fd, line(record));
    if (this.fsync === 'always') fsyncSync(this.#fd);
    return Promise.resolve();
  }

  async compact(state: unknown): Promise<void> {
    const next = this.#generation + 1;
    const nextLog = join(this.folder, logName(next));
    await writeAtomic(nextLog, '');
    const snapshot: SnapshotFile = { basekitJournal: 1, generation: next, state };
    const current = join(this.folder, SNAPSHOT);
    // A crash after this rename and before the new snapshot is in place leaves the previous one, read at start-up.
    await rename(current, join(this.folder, PREVIOUS)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await writeAtomic(current, JSON.stringify(snapshot));
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = openSync(nextLog, 'a');
    this.#generation = next;
    await this.#removeOtherLogs();
  }

  /**
   * A compaction makes the next journal file, empty, before its snapshot: a later file with records means the
   * snapshot it follows is missing, and starting would lose them.
   */
  async #checkNoLaterRecords(): Promise<void> {
    for (const name of await readdir(this.folder)) {
      const match = LOG.exec(name);
      if (!match || Number(match[1]) <= this.#generation) continue;
      const file = join(this.folder, name);
      if ((await stat(file)).size > 0)
        throw new StateRestoreError(
          file,
          `it follows a snapshot that is missing (${SNAPSHOT} is of generation ${this.#generation})`,
        );
    }
  }

  async #removeOtherLogs(): Promise<void> {
    for (const name of await readdir(this.folder)) {
      const match = LOG.exec(name);
      if (match && Number(match[1]) !== this.#generation) await rm(join(this.folder, name), { force: true });
    }
  }
}
