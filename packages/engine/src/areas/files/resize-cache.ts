import { OneAtATime } from '../../shared/util/one-at-a-time.js';

/** A resized image ready to serve. */
export interface ResizedImage {
  bytes: Uint8Array;
  contentType: string;
}

/** How much the cache may hold (config `resizeCacheBytes`, `resizeCacheEntries`). */
interface CacheLimits {
  bytes: number;
  entries: number;
}

/**
 * Resized copies of images by blob key and size, the least recently used going first once the bytes or the number
 * of copies pass their limit, so asking for many distinct sizes cannot fill memory. A blob key names one content
 * version, so a replaced or deleted file's copies are never served again; they just age out.
 */
export class ResizeCache {
  readonly #images = new Map<string, ResizedImage>();
  #bytes = 0;
  /** Copies are made one after another (see `produce`). */
  readonly #making = new OneAtATime();

  /**
   * The copy kept under `key`, else the one `make` makes, kept for next time. Copies are made one at a time: however
   * many are asked for at once, memory holds one source image, and a request for a copy being made gets that copy.
   */
  produce(
    key: string,
    make: () => Promise<ResizedImage | undefined>,
    limits: CacheLimits,
  ): Promise<ResizedImage | undefined> {
    const kept = this.get(key);
    if (kept) return Promise.resolve(kept);
    return this.#making.run(async () => {
      const made = this.get(key) ?? (await make());
      if (made) this.set(key, made, limits);
      return made;
    });
  }

  get(key: string): ResizedImage | undefined {
    const image = this.#images.get(key);
    if (image) {
      // Re-inserting moves the key to the end of the Map's order: most recently used.
      this.#images.delete(key);
      this.#images.set(key, image);
    }
    return image;
  }

  set(key: string, image: ResizedImage, limits: CacheLimits): void {
    if (image.bytes.length > limits.bytes || limits.entries < 1 || this.#images.has(key)) return;
    this.#images.set(key, image);
    this.#bytes += image.bytes.length;
    for (const [oldKey, old] of this.#images) {
      if (this.#bytes <= limits.bytes && this.#images.size <= limits.entries) break;
      this.#images.delete(oldKey);
      this.#bytes -= old.bytes.length;
    }
  }
}
