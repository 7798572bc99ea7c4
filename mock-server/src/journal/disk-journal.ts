import { closeSync, fdatasyncSync, ftruncateSync, fstatSync, openSync, writeSync } from 'node:fs';
import { chmod, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { StateRestoreError, type Journal, type JournalContents } from '@basekit/engine';
import { FILE_MODE, privateFolder, removeLeftovers, writeAtomic } from '../files/atomic.js';
import { storageError } from '../files/storage-error.js';

const SNAPSHOT = 'snapshot.json';
const PREVIOUS = 'snapshot.previous.json';
const LOG = /^journal-(\d+)\.log$/;
/** The format of `snapshot.json` this server writes and reads (the engine versions what is inside). */
const FORMAT = 1;
/**
 * Room set aside at the end of the journal file at a time, as zeros that records then overwrite: a full disk shows
 * when room is set aside, before a change is made, not when its record is written after it.
 */
const RESERVE_STEP = 256 * 1024;

/** How a snapshot is kept on disk: the state, and which journal file holds the records after it. */
interface SnapshotFile {
  basekitJournal: typeof FORMAT;
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

/**
 * The records of a journal file, and how many of its bytes hold them. What follows them is room set aside (zeros)
 * or a torn last record (a crash while it was written, or a write that failed), which was never answered.
 */
function parseLog(bytes: Buffer, file: string): { records: unknown[]; goodBytes: number; tornBytes: number } {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  const records: unknown[] = [];
  let at = 0;
  while (at < end) {
    const newline = bytes.indexOf(0x0a, at);
    const last = newline === -1 || newline >= end - 1;
    const record = newline === -1 || newline >= end ? undefined : checked(bytes.subarray(at, newline));
    if (record === undefined) {
      if (last) break;
      throw new StateRestoreError(file, `record ${records.length + 1} is damaged and records follow it`);
    }
    records.push(record.value);
    at = newline + 1;
  }
  return { records, goodBytes: at, tornBytes: end - at };
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
  if (typeof json !== 'object' || json === null || !('basekitJournal' in json))
    throw new StateRestoreError(file, 'not a basekit snapshot');
  if (json.basekitJournal !== FORMAT)
    throw new StateRestoreError(
      file,
      `it is of snapshot format ${JSON.stringify(json.basekitJournal)}; this server reads format ${FORMAT}`,
      'It is left as it is: start the basekit version that wrote it, or move the data folder away to start empty.',
    );
  if (!Number.isSafeInteger(json.generation)) throw new StateRestoreError(file, 'not a basekit snapshot');
  return json as SnapshotFile;
}

/** Writes all of `bytes` at `position` (a write may take fewer bytes than it was given). */
function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/**
 * The journal in a data folder (`<dir>/journal/`): `snapshot.json` (written atomically; the one before it kept as
 * `snapshot.previous.json`) and `journal-<n>.log`, one checksummed line per record, written whole before the change
 * is answered. Room for records is set aside ahead (`reserve`), and a write that fails is cut back to the last whole
 * record, so the file never holds a torn record that others follow. A compaction starts a new journal file named in
 * the new snapshot, so a crash at any moment leaves either the old snapshot with its journal or the new one with its
 * (empty) journal. Files are the owner's alone (0600 in a 0700 folder).
 */
export class DiskJournal implements Journal {
  readonly location: string;
  #generation = 0;
  /** Where the last whole record ends, and the next is written. */
  #end = 0;
  /** The size of the file: the records and the room set aside after them. */
  #size = 0;
  #fd: number | undefined;
  /** What `load` found that the first write must settle: the torn or set-aside bytes after the last record. */
  #loaded: { goodBytes: number } | undefined;

  /** @param fsync `always`: each record is flushed to the disk before `append` resolves (power loss); `never`: written to the OS only (crash, SIGKILL). */
  constructor(
    private readonly folder: string,
    private readonly fsync: 'never' | 'always',
  ) {
    this.location = folder;
  }

  async load(): Promise<JournalContents> {
    const snapshotFile = join(this.folder, SNAPSHOT);
    // A crash in the middle of a compaction may leave only the previous snapshot, whose journal is still there.
    let bytes = await readOptional(snapshotFile);
    let file = snapshotFile;
    if (bytes === undefined) {
      file = join(this.folder, PREVIOUS);
      bytes = await readOptional(file);
    }
    const snapshot = bytes && parseSnapshot(bytes, file);
    const generation = snapshot?.generation ?? 0;
    const log = join(this.folder, logName(generation));
    const logBytes = (await readOptional(log)) ?? Buffer.alloc(0);
    const { records, goodBytes, tornBytes } = parseLog(logBytes, log);
    await this.#checkNoLaterRecords(generation);
    if (this.#fd === undefined) {
      this.#generation = generation;
      this.#loaded = { goodBytes };
    }
    return {
      snapshot: snapshot?.state,
      records,
      ...(tornBytes > 0 && {
        dropped: `${tornBytes} bytes of a torn last record in ${log} (a crash while it was written; it was never answered)`,
      }),
    };
  }

  async reserve(bytes: number): Promise<void> {
    const fd = await this.#open();
    if (this.#size - this.#end >= bytes) return;
    // A step ahead when the disk has it; else no more than this record needs.
    for (const size of [this.#end + bytes + RESERVE_STEP, this.#end + bytes]) {
      try {
        writeAll(fd, Buffer.alloc(size - this.#size), this.#size);
        this.#size = size;
        return;
      } catch (error) {
        ftruncateSync(fd, this.#size);
        if (size === this.#end + bytes) throw storageError(error);
      }
    }
  }

  async append(record: unknown): Promise<void> {
    const bytes = line(record);
    await this.reserve(bytes.length);
    const fd = this.#fd!;
    try {
      writeAll(fd, bytes, this.#end);
      if (this.fsync === 'always') fdatasyncSync(fd);
    } catch (error) {
      // Cut back to the last whole record: the next one must never follow a torn one.
      try {
        ftruncateSync(fd, this.#end);
      } finally {
        this.#size = this.#end;
      }
      throw storageError(error);
    }
    this.#end += bytes.length;
  }

  async compact(state: unknown): Promise<void> {
    await this.#open();
    const next = this.#generation + 1;
    const nextLog = join(this.folder, logName(next));
    await writeAtomic(nextLog, '');
    // Opened before the snapshot names it: once the snapshot is in place, records go nowhere else.
    const nextFd = openSync(nextLog, 'r+');
    try {
      const current = join(this.folder, SNAPSHOT);
      // A crash after this rename and before the new snapshot is in place leaves the previous one, read at start-up.
      await rename(current, join(this.folder, PREVIOUS)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw storageError(error);
      });
      const snapshot: SnapshotFile = { basekitJournal: FORMAT, generation: next, state };
      await writeAtomic(current, JSON.stringify(snapshot));
    } catch (error) {
      closeSync(nextFd);
      throw error;
    }
    closeSync(this.#fd!);
    this.#fd = nextFd;
    this.#generation = next;
    this.#end = 0;
    this.#size = 0;
    await this.#removeOtherLogs();
  }

  /**
   * The journal file, opened for writing on the first write after `load`: only then is the folder changed (the torn
   * tail and the room set aside by the last run cut off, leftovers of a crash removed, modes made private), so a
   * start that fails leaves it as it was.
   */
  async #open(): Promise<number> {
    if (this.#fd !== undefined) return this.#fd;
    const goodBytes = this.#loaded?.goodBytes ?? 0;
    await privateFolder(this.folder);
    await removeLeftovers(this.folder);
    await this.#removeOtherLogs();
    const log = join(this.folder, logName(this.#generation));
    const fd = openSync(log, 'a+', FILE_MODE);
    try {
      if (fstatSync(fd).size !== goodBytes) ftruncateSync(fd, goodBytes);
    } catch (error) {
      closeSync(fd);
      throw storageError(error);
    }
    closeSync(fd);
    await chmod(log, FILE_MODE);
    // Positioned writes (not append mode), so that records overwrite the room set aside for them.
    this.#fd = openSync(log, 'r+');
    this.#end = goodBytes;
    this.#size = goodBytes;
    this.#loaded = undefined;
    return this.#fd;
  }

  /**
   * A compaction makes the next journal file, empty, before its snapshot: a later file with records means the
   * snapshot it follows is missing, and starting would lose them.
   */
  async #checkNoLaterRecords(generation: number): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new StateRestoreError(this.folder, (error as Error).message);
    }
    for (const name of names) {
      const match = LOG.exec(name);
      if (!match || Number(match[1]) <= generation) continue;
      const file = join(this.folder, name);
      const bytes = await readOptional(file);
      if (bytes?.some((byte) => byte !== 0))
        throw new StateRestoreError(
          file,
          `it follows a snapshot that is missing (${SNAPSHOT} is of generation ${generation})`,
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
