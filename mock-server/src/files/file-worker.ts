// The two worker threads of the server's uploads, in a chain: the first computes each content's MD5 and hands the
// bytes on to the second, which computes its CRC-32 and, given the descriptor of the file it goes to, writes it there
// too. The thread that reads and parses uploads does none of it, and MD5 (the largest cost) has a thread to itself.
import { createHash } from 'node:crypto';
import { MessageChannel, Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import type { ContentDigests, FileDigests } from '@basekit/engine';
import { ownsItsBuffer } from '../request-body.js';
import { WRITE_MAX } from './write-behind.js';

/** Bytes gathered before they go to the workers in one message. */
const BATCH = 1024 * 1024;
/** Bytes given to the workers and not yet hashed (and written) before `write` makes its caller wait. */
const HIGH_WATER = 4 * 1024 * 1024;
/** Copy buffers back from the workers kept for the next batches. */
const SPARES = 4;

/**
 * The first worker's code, as text (it runs the same from the sources, the build and a test runner): each message
 * brings pieces of one content, whose MD5 it updates before handing the message on (the buffers moved, not copied)
 * to the second worker, with the digest once the content ends.
 */
const MD5_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { next } = workerData;
const open = new Map();
parentPort.on('message', (message) => {
  let md5 = open.get(message.id);
  if (!md5) open.set(message.id, (md5 = createHash('md5')));
  for (const piece of message.pieces) md5.update(piece);
  if (message.end || message.stop) {
    open.delete(message.id);
    if (message.end) message.md5 = md5.digest('hex');
  }
  next.postMessage(message, [...new Set(message.pieces.map((piece) => piece.buffer))]);
});
`;

/**
 * The second worker's code. With a descriptor, it starts writing each message's pieces (`writev` on the thread
 * pool, one at a time, in order) and computes their CRC-32 while they are written; each message written (or, without
 * a descriptor, hashed) is acknowledged to the server's thread with its size and its copy buffers. `end` answers both
 * digests once everything is written; `stop` drops what waits and answers once no write is under way, so the
 * descriptor may then be closed.
 */
const WRITER_WORKER = `
const { workerData, parentPort, MessageChannel } = require('node:worker_threads');
const { writev } = require('node:fs');
const { crc32 } = require('node:zlib');
const contents = new Map();
const sizeOf = (pieces) => pieces.reduce((size, piece) => size + piece.length, 0);
const fault = (error) => ({ message: error.message, code: error.code, errno: error.errno, syscall: error.syscall });

// A closed port: what is transferred through it is dropped, and its memory freed at once (Node still detaches what a
// closed port is given, as the web's rules say).
const { port1: freeing } = new MessageChannel();
freeing.close();

/**
 * Acknowledges pieces hashed (and written). The copy buffers (${BATCH} bytes) go back for the next batches; the
 * socket's buffers are freed here and now. Left as garbage in this heap, which makes little else, they would wait
 * long for a collection; sent back, each MiB of them counted as new outside memory in the server's heap, which made
 * V8 run a full collection every 30 MiB or so (37 for a GiB, against 2 in a server that pipes the body to a file).
 */
function done(content, pieces) {
  const size = sizeOf(pieces);
  const buffers = [...new Set(pieces.map((piece) => piece.buffer))];
  const copies = buffers.filter((buffer) => buffer.byteLength === ${BATCH});
  const socket = buffers.filter((buffer) => buffer.byteLength !== ${BATCH});
  if (socket.length > 0) freeing.postMessage(null, socket);
  parentPort.postMessage({ id: content.id, done: size, buffers: copies }, copies);
}

function settle(content) {
  if (!content.closing || content.writing || (content.waiting.length > 0 && !content.failure)) return;
  contents.delete(content.id);
  const { id, failure } = content;
  if (content.closing === 'stop' || failure) parentPort.postMessage({ id, closed: true });
  else parentPort.postMessage({ id, closed: true, md5: content.md5, crc: content.crc });
}

function fail(content, error) {
  content.failure = fault(error);
  parentPort.postMessage({ id: content.id, failure: content.failure });
  const dropped = content.waiting.flat();
  content.waiting = [];
  if (dropped.length > 0) done(content, dropped);
}

/**
 * Writes the first message's pieces that wait, at most ${WRITE_MAX} bytes a writev (see WRITE_MAX in
 * write-behind.ts). A write may take fewer bytes than given (a full disk): the rest goes again. The message is done
 * once all of it is.
 */
function drain(content) {
  if (content.writing || content.failure || content.waiting.length === 0) return settle(content);
  const pieces = content.waiting.shift();
  const rest = [...pieces];
  content.writing = true;
  const write = () => {
    const some = [];
    for (let size = 0; rest.length > 0 && size < ${WRITE_MAX}; ) {
      const piece = rest.shift();
      const taken = Math.min(piece.length, ${WRITE_MAX} - size);
      if (taken < piece.length) rest.unshift(piece.subarray(taken));
      some.push(piece.subarray(0, taken));
      size += taken;
    }
    writev(content.fd, some, null, (error, written) => {
      if (!error && written === 0) error = new Error('the file system took none of the bytes written');
      if (!error) {
        let skip = written;
        while (some.length > 0 && skip >= some[0].length) skip -= some.shift().length;
        if (skip > 0) some[0] = some[0].subarray(skip);
        rest.unshift(...some);
        if (rest.length > 0) return write();
      }
      content.writing = false;
      done(content, pieces);
      if (error) fail(content, error);
      drain(content);
    });
  };
  write();
}

workerData.from.on('message', ({ id, fd, pieces, end, stop, md5 }) => {
  let content = contents.get(id);
  if (!content) {
    content = { id, fd, md5: undefined, crc: 0, waiting: [], writing: false, failure: undefined, closing: undefined };
    contents.set(id, content);
  }
  if (stop) {
    content.closing = 'stop';
    const dropped = content.waiting.flat();
    content.waiting = [];
    if (dropped.length > 0) done(content, dropped);
  } else if (pieces.length > 0) {
    const writes = content.fd !== undefined && !content.failure;
    if (writes) {
      content.waiting.push(pieces);
      drain(content);
    }
    for (const piece of pieces) content.crc = crc32(piece, content.crc);
    if (!writes) done(content, pieces);
  }
  if (end) {
    content.md5 = md5;
    content.closing ??= 'end';
  }
  settle(content);
});
`;

interface Reply {
  id: number;
  /** Bytes hashed (and written), and the copy buffers they freed. */
  done?: number;
  buffers?: ArrayBuffer[];
  /** A write failed: what Node's error said. */
  failure?: { message: string; code?: string; errno?: number; syscall?: string };
  /** The worker is done with the content (and its descriptor); with the digests when it ended whole. */
  closed?: true;
  md5?: string;
  crc?: number;
}

/** The first worker of the chain, which contents are sent to; the second answers. */
let worker: Worker | undefined;
/** The contents under way in the workers, by id: how each takes the replies, or the workers' loss. */
const under = new Map<number, { reply(reply: Reply): void; lost(error: unknown): void }>();
let nextId = 0;
/** Copy buffers back from the workers, for the next batches. */
const spare: ArrayBuffer[] = [];

/** The workers of the process, started with the first upload; they do not keep the process alive. */
function theWorker(): Worker {
  if (worker) return worker;
  const { port1, port2 } = new MessageChannel();
  // They make little garbage (the messages): a small young generation keeps their heaps small.
  const resourceLimits = { maxYoungGenerationSizeMb: 2 };
  const writer = new Worker(WRITER_WORKER, {
    eval: true,
    resourceLimits,
    workerData: { from: port2 },
    transferList: [port2],
  });
  const hasher = new Worker(MD5_WORKER, {
    eval: true,
    resourceLimits,
    workerData: { next: port1 },
    transferList: [port1],
  });
  writer.on('message', (reply: Reply) => {
    for (const buffer of reply.buffers ?? []) if (spare.length < SPARES) spare.push(buffer);
    under.get(reply.id)?.reply(reply);
  });
  // Should a worker fail, both stop, the uploads under way fail (a 500), and the next upload starts others.
  const lost = (error: unknown) => {
    if (worker === hasher) worker = undefined;
    for (const content of under.values()) content.lost(error);
    under.clear();
    for (const thread of [writer, hasher]) void thread.terminate();
  };
  for (const thread of [writer, hasher]) {
    thread.on('error', lost);
    thread.on('exit', (code) => lost(new Error(`an upload worker stopped (exit code ${code})`)));
    // After the listeners: a 'message' listener added later refs the worker's port again.
    thread.unref();
  }
  worker = hasher;
  return hasher;
}

const hex = (crc: number) => crc.toString(16).padStart(8, '0');

/**
 * One content going through the worker threads: hashed there and, given the descriptor of its file, written there
 * too (MD5 on one thread; CRC-32 on the other while the thread pool writes). Chunks are gathered into messages of
 * 1 MiB: a chunk that owns its buffer (a socket's, see `ownsItsBuffer`) is moved there when the content is written
 * by the workers, anything else is copied into a buffer that comes back for the next batch. `write` waits only once
 * 4 MiB are under way. A content that is hashed only and smaller than a batch never reaches the workers: it is
 * hashed at its end on this thread (a small file in memory costs no message).
 *
 * @example
 * const content = new WorkerContent(handle.fd);
 * await content.write(chunk);                // moved or copied, queued
 * const { md5, crc } = await content.end(); // hashed, and in the file (in the OS)
 */
export class WorkerContent {
  readonly #id = nextId++;
  /** Pieces gathered for the next message, their size, and the buffers to move with them. */
  #pieces: Uint8Array[] = [];
  #gathered = 0;
  #moved: ArrayBuffer[] = [];
  /** The buffer that chunks not moved are copied into, and how much of it is used. */
  #copies: Uint8Array<ArrayBuffer> | undefined;
  #copied = 0;
  /** Bytes given to the workers and not yet acknowledged. */
  #underWay = 0;
  #room: (() => void) | undefined;
  #failure: unknown;
  /** Set by the first message: the first worker, and the reply that closes the content in the second. */
  #sent: { target: Worker; closed: Promise<Reply> } | undefined;
  #ended: Promise<FileDigests> | undefined;
  /** Whether the workers are done with the content. */
  #closed = false;

  /** `fd`: the file the second worker writes the content to; none to hash it only. */
  constructor(private readonly fd?: number) {}

  async write(chunk: Uint8Array): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.fd !== undefined && ownsItsBuffer(chunk)) {
      this.#pieces.push(chunk);
      this.#moved.push(chunk.buffer as ArrayBuffer);
      this.#gathered += chunk.length;
    } else this.#copy(chunk);
    if (this.#gathered >= BATCH) this.#send(false);
    while (this.#underWay >= HIGH_WATER && this.#failure === undefined)
      await new Promise<void>((resolve) => (this.#room = resolve));
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** After the last chunk: the digests, once every byte is hashed and written; the same again when called again. */
  end(): Promise<FileDigests> {
    this.#ended ??= this.#end();
    return this.#ended;
  }

  /** Drops the content; resolves once no worker writes to the descriptor any more (it may then be closed). */
  async stop(): Promise<void> {
    if (!this.#sent || this.#closed) return;
    this.#sent.target.postMessage({ id: this.#id, pieces: [], stop: true });
    await this.#sent.closed;
  }

  async #end(): Promise<FileDigests> {
    if (!this.#sent && this.fd === undefined) {
      const md5 = createHash('md5');
      let crc = 0;
      for (const piece of this.#pieces) {
        md5.update(piece);
        crc = crc32(piece, crc);
      }
      this.#returnCopies();
      return { md5: md5.digest('hex'), crc: hex(crc) };
    }
    this.#send(true);
    const { md5, crc } = await this.#sent!.closed;
    if (this.#failure !== undefined) throw this.#failure;
    if (md5 === undefined || crc === undefined) throw new Error('the content was stopped before its end');
    return { md5, crc: hex(crc) };
  }

  #copy(chunk: Uint8Array): void {
    for (let at = 0; at < chunk.length; ) {
      if (!this.#copies) {
        this.#copies = new Uint8Array(spare.pop() ?? new ArrayBuffer(BATCH));
        this.#copied = 0;
        this.#moved.push(this.#copies.buffer);
      }
      const taken = Math.min(chunk.length - at, BATCH - this.#copied);
      this.#copies.set(chunk.subarray(at, at + taken), this.#copied);
      this.#pieces.push(this.#copies.subarray(this.#copied, this.#copied + taken));
      this.#copied += taken;
      this.#gathered += taken;
      at += taken;
      if (this.#copied === BATCH) {
        this.#copies = undefined;
        this.#send(false);
      }
    }
  }

  #send(end: boolean): void {
    this.#sent ??= this.#start();
    this.#sent.target.postMessage({ id: this.#id, fd: this.fd, pieces: this.#pieces, end }, this.#moved);
    this.#underWay += this.#gathered;
    this.#pieces = [];
    this.#moved = [];
    this.#gathered = 0;
    this.#copies = undefined;
  }

  #start(): { target: Worker; closed: Promise<Reply> } {
    const closed = new Promise<Reply>((resolve) => {
      under.set(this.#id, {
        reply: (reply) => {
          if (reply.done !== undefined) this.#underWay -= reply.done;
          if (reply.failure) this.#failure = writeError(reply.failure);
          if (reply.closed) {
            this.#closed = true;
            under.delete(this.#id);
            resolve(reply);
          }
          if (this.#underWay < HIGH_WATER || this.#failure !== undefined) this.#wake();
        },
        lost: (error) => {
          this.#closed = true;
          this.#failure ??= error;
          this.#wake();
          resolve({ id: this.#id, closed: true });
        },
      });
    });
    return { target: theWorker(), closed };
  }

  #wake(): void {
    this.#room?.();
    this.#room = undefined;
  }

  #returnCopies(): void {
    if (this.#copies && spare.length < SPARES) spare.push(this.#copies.buffer);
    this.#copies = undefined;
    this.#pieces = [];
  }
}

/** A failed write in a worker as Node's own error (its `code` tells a full disk). */
function writeError({ message, ...details }: NonNullable<Reply['failure']>): Error {
  return Object.assign(new Error(message), details);
}

/**
 * The `digests` of Node's hashing capability, for contents that are not written by the worker (in memory): the
 * bytes are copied to it in 1 MiB batches.
 */
export function workerDigests(): ContentDigests {
  const content = new WorkerContent();
  return { update: (chunk) => content.write(chunk), end: () => content.end() };
}
