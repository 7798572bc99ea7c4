import type { BlobStore, StoredBytes } from '../../shared/capabilities.js';

/**
 * File bytes kept in memory (the default, and the only store in browsers). Contents are never changed in place,
 * so a copy shares the bytes and a download serves them without copying.
 */
export class MemoryBlobStore implements BlobStore {
  readonly #bytes = new Map<string, Uint8Array>();

  async put(key: string, bytes: Uint8Array): Promise<void> {
    this.#bytes.set(key, bytes);
  }

  async get(key: string): Promise<StoredBytes | undefined> {
    return this.#bytes.get(key);
  }

  async delete(key: string): Promise<void> {
    this.#bytes.delete(key);
  }

  async copy(from: string, to: string): Promise<void> {
    const bytes = this.#bytes.get(from);
    if (bytes) this.#bytes.set(to, bytes);
  }

  /** Every key's bytes as base64, for the state export. */
  toJSON(): Record<string, string> {
    return Object.fromEntries([...this.#bytes].map(([key, bytes]) => [key, toBase64(bytes)]));
  }

  static fromJSON(json: Record<string, string>): MemoryBlobStore {
    const store = new MemoryBlobStore();
    for (const [key, base64] of Object.entries(json)) store.#bytes.set(key, fromBase64(base64));
    return store;
  }
}

// btoa/atob work on "binary strings"; built in chunks because String.fromCharCode takes a bounded argument list.
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
