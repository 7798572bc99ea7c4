/** A resized image ready to serve. */
export interface ResizedImage {
  bytes: Uint8Array;
  contentType: string;
}

/** Total bytes of resized copies kept; the least recently used go first. */
const BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * Resized copies of images by blob key and size. A blob key names one content version, so a replaced or deleted
 * file's copies are never served again; they just age out.
 */
export class ResizeCache {
  readonly #images = new Map<string, ResizedImage>();
  #bytes = 0;

  get(key: string): ResizedImage | undefined {
    const image = this.#images.get(key);
    if (image) {
      // Re-inserting moves the key to the end of the Map's order: most recently used.
      this.#images.delete(key);
      this.#images.set(key, image);
    }
    return image;
  }

  set(key: string, image: ResizedImage): void {
    if (image.bytes.length > BUDGET_BYTES || this.#images.has(key)) return;
    this.#images.set(key, image);
    this.#bytes += image.bytes.length;
    for (const [oldKey, old] of this.#images) {
      if (this.#bytes <= BUDGET_BYTES) break;
      this.#images.delete(oldKey);
      this.#bytes -= old.bytes.length;
    }
  }
}
