import type { FileHandle } from 'node:fs/promises';

/** Bytes that may wait for the disk before `write` makes its caller wait too. */
const HIGH_WATER = 4 * 1024 * 1024;

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
 * write rejects the next `write` and `flush`.
 *
 * @example
 * const file = new WriteBehind(await open(path, 'wx'));
 * await file.write(chunk); // queued
 * await file.flush();      // all on disk (in the OS), or the error of the write that failed
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
  async flush(): Promise<void> {
    await this.#writing;
    if (this.#failure !== undefined) throw this.#failure;
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        let batch = this.#waiting;
        this.#waiting = [];
        this.#waitingBytes = 0;
        this.#unblock();
        // A write may take fewer bytes than asked (a full disk): the rest is written again, which then tells why.
        while (batch.length > 0) {
          const { bytesWritten } = await this.handle.writev(batch);
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
