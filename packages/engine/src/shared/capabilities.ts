/**
 * Platform capabilities the engine reaches through small interfaces: the Node server wires in real
 * implementations (disk, sharp, ffmpeg, outbound HTTP); the browser side supplies stand-ins.
 * Areas add their interface here and read it from `project.capabilities`.
 */
import type { TranscoderCapability } from './transcoder-capability.js';

/**
 * What a platform lends the engine (`createEngine({ capabilities })`): each one absent has a browser-safe default.
 *
 * @example
 * const engine = createEngine({ capabilities: { fetch: (input, init) => fetch(input, init), images: canvasImageResizer() } });
 */
export interface Capabilities {
  /** Outbound HTTP (transcoder source downloads, webhooks, upload deliveries). */
  fetch: typeof fetch;
  /** Durable file bytes (Node `--data-dir`). Absent: the files area keeps bytes in memory, inside its state. */
  blobs?: BlobStore;
  /** Keeps an area's metadata across restarts (Node `--data-dir`). Absent: memory only. */
  persistence?: Persistence;
  /** Keeps every other state change across restarts and crashes (Node `--data-dir`). Absent: memory only. */
  journal?: Journal;
  /**
   * Keeps the list of the server's projects beyond the default one, and gives each a place of its own for its state
   * (Node `--data-dir`). Absent: those projects live in memory only. The capabilities above are the default project's.
   */
  projects?: ProjectStore;
  /** MD5 and CRC-32 of file contents (Node's crypto and zlib). Absent: the files area's portable JavaScript (browsers), several times slower. */
  hashing?: Hashing;
  /**
   * PBKDF2-HMAC-SHA256, the password hash (Node: `crypto.pbkdf2`, the same hash on the same thread pool as WebCrypto's
   * with a third of its work on the calling thread). It must give WebCrypto's bytes: users stored by one platform log
   * in on the other. Absent: WebCrypto's `deriveBits`.
   */
  pbkdf2?: Pbkdf2;
  /**
   * HMAC-SHA256, which signs and checks access tokens (Node: `crypto.createHmac`). It must give the portable HMAC's
   * bytes: a token signed on one platform verifies on the other. Absent: noble's HMAC in JavaScript, about five times
   * the CPU of Node's (8.9 against 1.6 µs a token).
   */
  hmacSha256?: HmacSha256;
  /**
   * A request's body as the platform receives it, chunk by chunk, without a web stream in between (Node: the
   * server's own request stream); undefined for a request it has no such body for. Absent: `request.body`.
   */
  requestBody?: (request: Request) => AsyncIterable<Uint8Array> | undefined;
  /**
   * Where `needle` first occurs in `haystack` at or after `from`, -1 when nowhere: the platform's native search
   * (Node: `Buffer#indexOf`), for the boundaries of large uploads. Absent: a portable search in JavaScript.
   */
  byteSearch?: ByteSearch;
  /** Image resizing for downloads `.../r/<w>x<h>` (sharp in Node). Absent: the original image is served. */
  images?: ImageResizer;
  /** Video conversion (ffmpeg in Node), or why it cannot run. Absent: the transcoder simulates it with tiny files (browsers). */
  transcoder?: TranscoderCapability;
  /**
   * A secret of the server mixed into the key that signs access tokens, so that a project's keys alone (the built-in
   * ones are public) cannot make a token: the Node server draws it at random, kept in its data folder. Absent (msw,
   * where only the page itself reaches the engine): tokens are signed with the project's keys alone.
   */
  tokenSecret?: string;
  /**
   * Makes the Response of each JSON answer (`c.json`). Node's server gives a lighter one that behaves as a Response
   * and that its transport writes as it is, without the body stream a standard Response builds. Absent: `new Response`.
   */
  jsonResponse?: (text: string, init: JsonResponseInit) => Response;
  /**
   * The headers of `request` as the request inspector keeps them, for as long as it keeps the request: the same
   * entries as `request.headers`, without what the platform's request holds besides (Node: its `IncomingMessage`,
   * whose keeping cost each request its garbage collection); undefined for a request it did not make. Absent:
   * `request.headers`.
   */
  inspectedHeaders?: (request: Request) => Headers | undefined;
}

/**
 * PBKDF2 with HMAC-SHA256: `length` bytes derived from `password` (its UTF-8 bytes) and `salt` in `iterations` rounds.
 *
 * @example
 * const pbkdf2: Pbkdf2 = (password, salt, iterations, length) =>
 *   new Promise((resolve, reject) =>
 *     crypto.pbkdf2(password, salt, iterations, length, 'sha256', (error, key) => (error ? reject(error) : resolve(key))),
 *   );
 */
export type Pbkdf2 = (
  password: Uint8Array,
  salt: Uint8Array,
  iterations: number,
  length: number,
) => Promise<Uint8Array>;

/**
 * HMAC-SHA256 under `key`, given once: the function it answers signs one text (its UTF-8 bytes) per call.
 *
 * @example
 * const hmacSha256: HmacSha256 = (key) => (text) => crypto.createHmac('sha256', key).update(text).digest();
 */
export type HmacSha256 = (key: Uint8Array) => (text: string) => Uint8Array;

/**
 * Where `needle` first occurs in `haystack` at or after `from`; -1 when nowhere.
 *
 * @example
 * const byteSearch: ByteSearch = (haystack, needle, from) => Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length).indexOf(needle, from);
 */
export type ByteSearch = (haystack: Uint8Array, needle: Uint8Array, from: number) => number;

/**
 * What a JSON answer is made of besides its text: the status and the headers, `Content-Type` among them.
 *
 * @example
 * const capabilities: Partial<Capabilities> = {
 *   jsonResponse: (text, { status, headers }: JsonResponseInit) => new Response(text, { status, headers }),
 * };
 */
export interface JsonResponseInit {
  status: number;
  headers: Record<string, string>;
}

/**
 * File contents as stored: a Blob backed by a file on disk, or in memory the chunks of the content in order, kept as
 * they arrived (never copied into one piece, so a large file costs its own size and no more).
 *
 * @example
 * const bytes: StoredBytes | undefined = await blobs.get(key);
 * const blob = bytes instanceof Blob ? bytes : new Blob(bytes as Uint8Array<ArrayBuffer>[]);
 */
export type StoredBytes = Blob | readonly Uint8Array[];

/**
 * Stores file contents by opaque key (letters and digits chosen by the engine, never by a client).
 *
 * @example
 * const writer = await blobs.create('k1');
 * await writer.write(new TextEncoder().encode('hello'));
 * await writer.end();
 * await writer.commit();
 * const bytes = await blobs.get('k1'); // a Blob of 5 bytes, or the chunks [Uint8Array(5)]
 */
export interface BlobStore {
  /** Starts new content under `key`, written as it arrives; nobody sees it until the writer's `commit`. */
  create(key: string): Promise<BlobWriter>;
  /**
   * Starts new content as `create` does, whose writer also computes the content's MD5 and CRC-32 (`end` answers
   * them): a store that can hash where it writes (Node: a worker thread hashes each chunk while the thread pool
   * writes it) leaves the caller's thread only the parsing. The store may take the memory of a chunk given to `write`
   * (Node transfers a socket's own buffer to that thread): the caller must not read it afterwards. Absent: `create`,
   * and the digests apart (`Hashing`).
   */
  createHashed?(key: string): Promise<BlobWriter<FileDigests>>;
  /** The committed content under `key`, or undefined when there is none. */
  get(key: string): Promise<StoredBytes | undefined>;
  /** Removes the key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Stores the content of `from` under `to` as well. */
  copy(from: string, to: string): Promise<void>;
}

/**
 * New content being written to a `BlobStore`.
 *
 * @example
 * const writer: BlobWriter = await blobs.create('k1');
 * try {
 *   for await (const chunk of body) await writer.write(chunk);
 *   await writer.end();
 *   await writer.commit();
 * } catch (error) {
 *   await writer.abort();
 *   throw error;
 * }
 */
export interface BlobWriter<Ended = void> {
  /**
   * Appends `chunk`. The store may keep the chunk itself: it must not be changed afterwards. Resolves once the store
   * can take the next chunk, which may be before this one is on disk (a store that writes behind keeps a bounded
   * amount in waiting): a failure to write it then rejects a later `write` or `end`.
   */
  write(chunk: Uint8Array): Promise<void>;
  /**
   * After the last chunk: the store flushes the content and lets go of what it held open for writing (a file
   * descriptor), so an upload of many files holds one at a time. The content stays invisible until `commit`.
   * A writer from `createHashed` answers the content's digests.
   */
  end(): Promise<Ended>;
  /** After `end`: makes the content visible under its key at once, atomically (a reader sees all of it or nothing). */
  commit(): Promise<void>;
  /** Drops what was written, leaving nothing behind. */
  abort(): Promise<void>;
}

/**
 * A digest of content that arrives in pieces.
 *
 * @example
 * const md5 = hashing.md5();
 * md5.update(first);
 * md5.update(second);
 * md5.digest(); // 32 lowercase hex digits
 */
export interface Hasher {
  /** Takes the next piece of the content. */
  update(chunk: Uint8Array): void;
  /** The digest as lowercase hex; called once, after the last `update`. */
  digest(): string;
}

/**
 * Makes the hashers of file info: `md5Hash` (MD5, 32 hex digits) and `crcHash` (CRC-32 as zlib's, 8 hex digits).
 *
 * @example
 * const hashing: Hashing = { md5: () => nodeHasher('md5'), crc32: () => crc32Hasher() };
 * createEngine({ capabilities: { hashing } });
 */
export interface Hashing {
  /** A new MD5 hasher. */
  md5(): Hasher;
  /** A new CRC-32 hasher. */
  crc32(): Hasher;
  /**
   * Both digests of one content, computed away from the caller's thread (Node: a worker thread), so that hashing a
   * large upload runs beside reading, parsing and writing it. Absent: `md5` and `crc32` on the caller's thread.
   */
  digests?(): ContentDigests;
}

/**
 * The digests of a file's content as its info shows them.
 *
 * @example
 * const { md5, crc }: FileDigests = await writer.end(); // { md5: '5d41402abc4b2a76b9719d911017c592', crc: '3610a686' }
 */
export interface FileDigests {
  /** MD5, 32 lowercase hex digits (`md5Hash`). */
  md5: string;
  /** CRC-32 as zlib's, 8 lowercase hex digits (`crcHash`). */
  crc: string;
}

/**
 * The MD5 and CRC-32 of a content that arrives in pieces, computed elsewhere.
 *
 * @example
 * const digests = hashing.digests();
 * await digests.update(chunk); // resolves at once unless too much waits to be hashed
 * const { md5, crc } = await digests.end();
 */
export interface ContentDigests {
  /** Takes a copy of `chunk`; resolves once more may be given (a bounded amount waits to be hashed). */
  update(chunk: Uint8Array): Promise<void>;
  /** After the last chunk: the digests, as `md5()` and `crc32()` give them; the same again when called again. */
  end(): Promise<FileDigests>;
}

/**
 * Keeps an area's metadata across restarts: the whole of it as JSON, saved now and then, and each change after it
 * appended to a log, so that a change costs what it changed rather than the whole.
 *
 * @example
 * const saved = persistence.restore('files', (json, changes) => rebuild(json, changes)); // or undefined
 * await persistence.append('files', { v: 1, steps: [...] }); // kept once it resolves
 * await persistence.save('files', { entries: [] });           // the whole, which the log then starts after
 * await persistence.settled();                                  // every write asked for has ended
 */
export interface Persistence {
  /**
   * What the previous run kept under `key`: the JSON last saved and the changes appended after it, in order (a torn
   * last change, never answered, left out), turned into state by `parse`; handed out once, at start-up (after a reset
   * the area starts empty). When they cannot be read or `parse` throws, it throws an error that names where the state
   * is kept, and leaves it there untouched.
   */
  restore<T>(key: string, parse: (json: unknown, changes: readonly unknown[]) => T): T | undefined;
  /**
   * Replaces the saved JSON atomically and drops the changes appended before it. Should it fail, the JSON saved before
   * and its changes are kept as they were. Saves and appends land in call order.
   */
  save(key: string, json: unknown): Promise<void>;
  /**
   * Appends one change after the saved JSON and the changes before it: kept once it resolves; a write that cannot be
   * made (no room, a failing disk) rejects with a `StorageError` and leaves no part of it.
   */
  append(key: string, change: unknown): Promise<void>;
  /**
   * Resolves once every save and append asked for so far has ended, kept or failed: a project that closes waits for
   * it, so that nothing is written to its folder after it has closed (an area may save without being asked, as the
   * files tree saves its empty state when first made).
   */
  settled(): Promise<void>;
}

/**
 * What a journal keeps: the state at some moment, and the changes after it in order.
 *
 * @example
 * const { snapshot, records, dropped }: JournalContents = await journal.load();
 * if (dropped) console.warn(`left out: ${dropped}`);
 */
export interface JournalContents {
  /** The last snapshot written (`Journal.compact`), undefined when there is none. */
  snapshot: unknown;
  /** The records appended after it, in order; a torn last record (a crash in the middle of its write) left out. */
  records: unknown[];
  /** What was left out (a torn last record), in words for the start-up message. */
  dropped?: string;
}

/**
 * A snapshot of the state plus an append-only list of the changes since (each a JSON value), so that every change
 * survives a crash once `append` has resolved. A write that cannot be made (no room, a failing disk) rejects with a
 * `StorageError` and leaves the journal as it was before it: no part of the record stays.
 *
 * @example
 * const { snapshot, records } = await journal.load(); // once, at start-up
 * await journal.reserve?.(4096);                       // before a change: room for its record, or a StorageError
 * await journal.append({ kind: 'request', ... });       // durable when it resolves
 * await journal.compact(newSnapshot);                   // the snapshot replaces itself and every record
 */
export interface Journal {
  /** Where the journal is kept (a folder, a database), for messages. */
  readonly location: string;
  /**
   * What the previous run left, read without changing anything (a torn last record is cut off by the first write
   * after it). When it cannot be read (not this format, damaged before its last record), it throws an error that
   * names where the state is kept and what to do. Called again after a failed write, it gives what was kept.
   */
  load(): Promise<JournalContents>;
  /**
   * Makes sure the next `append` of up to `bytes` bytes finds room (a disk journal sets the room aside), so that a
   * full disk refuses a change before it is made: rejects with a `StorageError` when there is none.
   */
  reserve?(bytes: number): Promise<void>;
  /** Adds one record after the others; appends land in call order. */
  append(record: unknown): Promise<void>;
  /** Writes `snapshot` atomically (the previous one kept as a copy) and then drops every record. */
  compact(snapshot: unknown): Promise<void>;
}

/**
 * Where the projects beyond the default one are kept: for each, a record (the config it started with) and a place
 * of its own (a folder) that holds its state and files and no other project's.
 *
 * @example
 * const kept = await store.load();                  // [{ key: 'k3j9', record: {...} }, ...] as `save` left them
 * const own = await store.open('k3j9');             // { blobs, persistence, journal } of that project alone
 * await store.save('k3j9', { config: {...} });
 * await store.remove('k3j9');                       // its record and everything kept for it
 */
export interface ProjectStore {
  /** Every project kept: its key and the record `save` last stored for it. */
  load(): Promise<{ key: string; record: unknown }[]>;
  /** Keeps `record` as the project's under `key` (letters and digits chosen by the engine), replacing it atomically. */
  save(key: string, record: unknown): Promise<void>;
  /** The capabilities that keep the state of the project under `key`, in its own place. */
  open(key: string): Promise<Pick<Capabilities, 'blobs' | 'persistence' | 'journal'>>;
  /** Deletes the record and everything kept under `key`. */
  remove(key: string): Promise<void>;
}

/**
 * Resizes images.
 *
 * @example
 * const out = await images.resize(pngBytes, 100, 100); // fits inside 100x100, aspect kept, never enlarged
 */
export interface ImageResizer {
  /**
   * The image scaled down to fit inside `width`×`height` keeping its aspect ratio, never enlarged (a larger box gives
   * the image at its own size); undefined when `bytes` is not an image it can read.
   */
  resize(
    bytes: Uint8Array,
    width: number,
    height: number,
  ): Promise<{ bytes: Uint8Array; contentType: string } | undefined>;
}

export function defaultCapabilities(): Capabilities {
  return { fetch: (...args) => globalThis.fetch(...args) };
}
