/**
 * Platform capabilities the engine reaches through small interfaces: the Node server wires in real
 * implementations (disk, sharp, ffmpeg, outbound HTTP); the browser side supplies stand-ins.
 * Areas add their interface here and read it from `project.capabilities`.
 */
import type { TranscoderCapability } from '../areas/transcoder/runner.js';

export interface Capabilities {
  /** Outbound HTTP (transcoder source downloads, webhooks, upload deliveries). */
  fetch: typeof fetch;
  /** Durable file bytes (Node `--data-dir`). Absent: the files area keeps bytes in memory, inside its state. */
  blobs?: BlobStore;
  /** Keeps an area's metadata across restarts (Node `--data-dir`). Absent: memory only. */
  persistence?: Persistence;
  /** Image resizing for downloads `.../r/<w>x<h>` (sharp in Node). Absent: the original image is served. */
  images?: ImageResizer;
  /** Video conversion (ffmpeg in Node), or why it cannot run. Absent: the transcoder simulates it with tiny files (browsers). */
  transcoder?: TranscoderCapability;
}

/** File contents as stored: bytes in memory, or a Blob backed by a file on disk. Both are valid Response bodies. */
export type StoredBytes = Uint8Array | Blob;

/**
 * Stores file contents by opaque key (letters and digits chosen by the engine, never by a client).
 *
 * @example
 * await blobs.put('k1', new TextEncoder().encode('hello'));
 * const bytes = await blobs.get('k1'); // Uint8Array or Blob of 5 bytes
 */
export interface BlobStore {
  /** Stores `bytes` under `key` atomically: a reader sees the whole content or nothing. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<StoredBytes | undefined>;
  /** Removes the key; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Stores the content of `from` under `to` as well. */
  copy(from: string, to: string): Promise<void>;
}

/**
 * Saves an area's metadata as JSON so it survives a restart.
 *
 * @example
 * const saved = persistence.restore('files', (json) => fromJSON(json)); // what the previous run saved, or undefined
 * await persistence.save('files', { entries: [] });
 */
export interface Persistence {
  /**
   * What the previous run saved under `key`, turned into state by `parse`; handed out once, at start-up (after a reset
   * the area starts empty). When the saved JSON cannot be read or `parse` throws, it throws an error that names
   * where the state is kept, and leaves it there untouched.
   */
  restore<T>(key: string, parse: (json: unknown) => T): T | undefined;
  /** Replaces the saved JSON atomically; saves land in call order. */
  save(key: string, json: unknown): Promise<void>;
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
  resize(bytes: Uint8Array, width: number, height: number): Promise<{ bytes: Uint8Array; contentType: string } | undefined>;
}

export function defaultCapabilities(): Capabilities {
  return { fetch: (...args) => globalThis.fetch(...args) };
}
