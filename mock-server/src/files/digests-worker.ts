// The MD5 and CRC-32 of uploads, computed in a worker thread beside the thread that reads, parses and writes them.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import type { ContentDigests } from '@basekit/engine';

/**
 * Bytes gathered before they go to the worker in one message. Their buffer is transferred there and back, not
 * copied, and used again: the worker's heap never holds more than the batches under way.
 */
const BATCH = 1024 * 1024;
/** Batches that may wait for the worker before `update` makes its caller wait too. */
const MAX_WAITING = 4;

/**
 * The worker's code, as text (it runs the same from the sources, the build and a test runner): each message adds
 * bytes to the digests of one content, and the last one answers them. Node's own MD5 (OpenSSL) and CRC-32 (zlib).
 */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
const open = new Map();
parentPort.on('message', ({ id, bytes, end }) => {
  let entry = open.get(id);
  if (!entry) open.set(id, (entry = { md5: createHash('md5'), crc: 0 }));
  if (bytes.length > 0) {
    entry.md5.update(bytes);
    entry.crc = crc32(bytes, entry.crc);
  }
  parentPort.postMessage({ id, taken: bytes.buffer, hashed: bytes.length }, [bytes.buffer]);
  if (end) {
    open.delete(id);
    parentPort.postMessage({ id, md5: entry.md5.digest('hex'), crc: entry.crc.toString(16).padStart(8, '0') });
  }
});
`;

interface Reply {
  id: number;
  /** The buffer of a batch hashed, back for the next, and how many of its bytes were hashed. */
  taken?: ArrayBuffer;
  hashed?: number;
  md5?: string;
  crc?: string;
}

/** What one content's digests are waiting for from the worker. */
interface Pending {
  /** Called as each batch with bytes is hashed. */
  taken(): void;
  digests(reply: { md5: string; crc: string }): void;
  failed(error: unknown): void;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 0;
/** Batch buffers back from the worker, for the next batches. */
const spare: ArrayBuffer[] = [];
const newBatch = () => new Uint8Array(spare.pop() ?? new ArrayBuffer(BATCH));

/** The one worker of the process, started with the first upload; it does not keep the process alive. */
function theWorker(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER, { eval: true });
  started.on('message', ({ id, taken, hashed, md5, crc }: Reply) => {
    const waiting = pending.get(id);
    if (taken) {
      if (taken.byteLength === BATCH && spare.length < MAX_WAITING) spare.push(taken);
      if (hashed! > 0) waiting?.taken();
    } else if (md5 !== undefined && crc !== undefined) {
      pending.delete(id);
      waiting?.digests({ md5, crc });
    }
  });
  // Should the worker fail, the uploads under way fail (a 500), and the next upload starts another worker.
  const failed = (error: unknown) => {
    if (worker === started) worker = undefined;
    for (const waiting of pending.values()) waiting.failed(error);
    pending.clear();
  };
  started.on('error', failed);
  started.on('exit', (code) => failed(new Error(`the hashing worker stopped (exit code ${code})`)));
  // After the listeners: a 'message' listener added later refs the worker's port again.
  started.unref();
  worker = started;
  return started;
}

/** MD5 and CRC-32 of bytes at hand, on this thread. */
function digestsOf(bytes: Uint8Array): { md5: string; crc: string } {
  return { md5: createHash('md5').update(bytes).digest('hex'), crc: crc32(bytes).toString(16).padStart(8, '0') };
}

/**
 * The `digests` of Node's hashing capability: the bytes are copied into 1 MiB batches handed to a worker thread,
 * where MD5 and CRC-32 run; `update` waits only once 4 batches wait to be hashed. A content smaller than a batch
 * never reaches the worker: it is hashed here at its end, in one piece (a small file costs no message).
 */
export function workerDigests(): ContentDigests {
  const id = nextId++;
  let batch = newBatch();
  let filled = 0;
  let waiting = 0;
  let failure: unknown;
  let room: (() => void) | undefined;
  let ended: Promise<{ md5: string; crc: string }> | undefined;
  /** The worker and its answer, from the first full batch on. */
  let sent: { target: Worker; result: Promise<{ md5: string; crc: string }> } | undefined;
  const start = () => {
    const result = new Promise<{ md5: string; crc: string }>((resolve, reject) => {
      pending.set(id, {
        taken: () => {
          waiting--;
          room?.();
          room = undefined;
        },
        digests: resolve,
        failed: (error) => {
          failure = error;
          room?.();
          reject(error);
        },
      });
    });
    result.catch(() => undefined); // told through `update` and `end`
    return { target: theWorker(), result };
  };
  const send = (end: boolean) => {
    sent ??= start();
    sent.target.postMessage({ id, bytes: batch.subarray(0, filled), end }, [batch.buffer]);
    if (filled > 0) waiting++;
    batch = end ? new Uint8Array(0) : newBatch();
    filled = 0;
  };
  return {
    async update(chunk) {
      for (let at = 0; at < chunk.length; ) {
        if (failure !== undefined) throw failure;
        const taken = Math.min(chunk.length - at, BATCH - filled);
        batch.set(chunk.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === BATCH) send(false);
      }
      while (waiting >= MAX_WAITING && failure === undefined) await new Promise<void>((resolve) => (room = resolve));
      if (failure !== undefined) throw failure;
    },
    end() {
      if (!ended) {
        if (sent) send(true);
        else {
          const here = digestsOf(batch.subarray(0, filled));
          if (spare.length < MAX_WAITING) spare.push(batch.buffer);
          batch = new Uint8Array(0);
          ended = Promise.resolve(here);
        }
        ended ??= sent!.result;
      }
      return ended;
    },
  };
}
