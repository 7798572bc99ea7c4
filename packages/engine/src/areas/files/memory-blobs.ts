import type { BlobStore, BlobWriter, StoredBytes } from '../../shared/capabilities.js';

/**
 * A chunk as it is kept: itself, unless it is a small view of a much larger buffer (a tiny file cut out of a
 * network read), which would keep that whole buffer alive; such a view is copied.
 */
const keepable = (chunk: Uint8Array) => (chunk.byteLength * 2 < chunk.buffer.byteLength ? chunk.slice() : chunk);

/**
 * File bytes kept in memory (the default, and the only store in browsers), as the chunks they arrived in: an upload
 * costs the file's size, not twice that for joining the chunks. Contents are never changed in place, so a copy
 * shares the chunks and a download serves them without copying.
 */
export class MemoryBlobStore implements BlobStore {
  readonly #chunks = new Map<string, readonly Uint8Array[]>();

  async create(key: string): Promise<BlobWriter> {
    let chunks: Uint8Array[] = [];
    return {
      write: async (chunk) => {
        chunks.push(keepable(chunk));
      },
      end: async () => undefined,
      commit: async () => {
        this.#chunks.set(key, chunks);
      },
      abort: async () => {
        chunks = [];
      },
    };
  }

  async get(key: string): Promise<StoredBytes | undefined> {
    return this.#chunks.get(key);
  }

  async delete(key: string): Promise<void> {
    this.#chunks.delete(key);
  }

  async copy(from: string, to: string): Promise<void> {
    const chunks = this.#chunks.get(from);
    if (chunks) this.#chunks.set(to, chunks);
  }

  /** A store of its own with the same contents (shared, as contents are never changed in place). */
  clone(): MemoryBlobStore {
    const copy = new MemoryBlobStore();
    for (const [key, chunks] of this.#chunks) copy.#chunks.set(key, chunks);
    return copy;
  }

  /** Every key's bytes as base64, for the state export. */
  toJSON(): Record<string, string> {
    return Object.fromEntries([...this.#chunks].map(([key, chunks]) => [key, toBase64(chunks)]));
  }

  static fromJSON(json: Record<string, string>): MemoryBlobStore {
    const store = new MemoryBlobStore();
    for (const [key, base64] of Object.entries(json)) store.#chunks.set(key, [fromBase64(base64)]);
    return store;
  }
}

// btoa/atob work on "binary strings"; built in pieces because String.fromCharCode takes a bounded argument list.
function toBase64(chunks: readonly Uint8Array[]): string {
  let binary = '';
  for (const chunk of chunks) {
    for (let i = 0; i < chunk.length; i += 0x8000) binary += String.fromCharCode(...chunk.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
