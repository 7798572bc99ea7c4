import type { FileHandle } from 'node:fs/promises';

/** Bytes that may wait for the disk before `write` makes its caller wait too. */
const HIGH_WATER = 4 * 1024 * 1024;

/**
 * The most bytes one write hands the kernel: larger writes cost this machine's kernel several times the CPU a byte
 * (1 GiB in writes of 1 MiB took 0.9-1.2 s, in writes of 64-512 KiB 0.3 s).
 */
export const WRITE_MAX = 256 * 1024;

/** The first chunks of `chunks`, at most `WRITE_MAX` bytes (the last one cut). */
function firstOf(chunks: Uint8Array[]): Uint8Array[] {
  const some: Uint8Array[] = [];
  for (let i = 0, size = 0; i < chunks.length && size < WRITE_MAX; i++) {
    some.push(chunks[i]!.subarray(0, WRITE_MAX - size));
    size += some.at(-1)!.length;
  }
  return some;
}

/** What is left of `chunks` once their first `written` bytes are on disk. */
function after(chunks: Uint8Array[], written: number): Uint8Array[] {
  let skip = written;
  while (chunks.length > 0 && skip >= chunks[0]!.length) skip -= chunks.shift()!.length;
  if (skip > 0) chunks[0] = chunks[0]!.subarray(skip);
  return chunks;
}

/**
 * Writes a file behind its caller: `write` queues the chunk and resolves at once while less than 4 MiB wait, so that
 * reading, parsing and hashing the next chunks go on while the disk takes the last ones; whatever waits goes to the
 * file in one `writev` each time the disk is free. At most 4 MiB wait and 4 MiB more are being written. A failed
 * write rejects the next `write` and `end`.
 *
 * @example
 * const file = new WriteBehind(await open(path, 'wx'));
 * await file.write(chunk); // queued
 * await file.end();        // all on disk (in the OS), or the error of the write that failed
 */
export class WriteBehind {
  #waiting: Uint8Array[] = [];
  #waitingBytes = 0;
  #writing: Promise<void> | undefined;
  #failure: unknown;
  /** Callers of `write` waiting for room. */
  #blocked: (() => void)[] = [];

  constructor(private readonly handle: FileHandle) {}

  write(chunk: Uint8Array): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (chunk.length === 0) return Promise.resolve();
    this.#waiting.push(chunk);
    this.#waitingBytes += chunk.length;
    this.#writing ??= this.#drain();
    if (this.#waitingBytes < HIGH_WATER) return Promise.resolve();
    return new Promise((resolve) => this.#blocked.push(resolve));
  }

  /** Waits until every chunk written so far is in the file; rejects with the failure of a write that failed. */
  async end(): Promise<void> {
    await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Waits until no write is under way (the handle may then be closed), whether the writes failed or not. */
  stop(): Promise<void> {
    return this.end().catch(() => undefined);
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        let batch = this.#waiting;
        this.#waiting = [];
        this.#waitingBytes = 0;
        this.#unblock();
        // At most WRITE_MAX bytes a write. A write may take fewer bytes than asked (a full disk): the rest is written
        // again, which then tells why.
        while (batch.length > 0) {
          const { bytesWritten } = await this.handle.writev(firstOf(batch));
          if (bytesWritten === 0) throw new Error('the file system took none of the bytes written');
          batch = after(batch, bytesWritten);
        }
      }
    } catch (error) {
      this.#failure = error;
      this.#waiting = [];
    } finally {
      this.#writing = undefined;
      this.#unblock();
    }
  }

  #unblock(): void {
    for (const resolve of this.#blocked.splice(0)) resolve();
  }
}
