import { describe, expect, it } from 'vitest';
import { ResizeCache } from '../src/areas/files/resize-cache.js';

const image = (size: number) => ({ bytes: new Uint8Array(size), contentType: 'image/png' });

describe('ResizeCache', () => {
  it('keeps at most `entries` copies, dropping the least recently used', () => {
    const cache = new ResizeCache();
    const limits = { bytes: 1_000, entries: 2 };
    cache.set('a', image(1), limits);
    cache.set('b', image(1), limits);
    cache.get('a'); // now b is the least recently used
    cache.set('c', image(1), limits);
    expect(['a', 'b', 'c'].map((key) => cache.get(key) !== undefined)).toEqual([true, false, true]);
  });

  it('keeps at most `bytes` bytes, and never a copy larger than that', () => {
    const cache = new ResizeCache();
    const limits = { bytes: 10, entries: 100 };
    cache.set('a', image(4), limits);
    cache.set('b', image(4), limits);
    cache.set('c', image(4), limits);
    cache.set('huge', image(11), limits);
    expect(['a', 'b', 'c', 'huge'].map((key) => cache.get(key) !== undefined)).toEqual([false, true, true, false]);
  });

  it('keeps nothing with a limit of 0', () => {
    const cache = new ResizeCache();
    cache.set('a', image(1), { bytes: 10, entries: 0 });
    cache.set('b', image(1), { bytes: 0, entries: 10 });
    expect([cache.get('a'), cache.get('b')]).toEqual([undefined, undefined]);
  });
});

describe('ResizeCache.produce', () => {
  const limits = { bytes: 1_000, entries: 100 };

  it('makes one copy at a time, however many are asked for at once', async () => {
    const cache = new ResizeCache();
    let running = 0;
    let most = 0;
    const make = async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return image(1);
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => cache.produce(`k${i}`, make, limits)));
    expect(most).toBe(1);
  });

  it('makes a copy asked for twice at once only once, and keeps it', async () => {
    const cache = new ResizeCache();
    let made = 0;
    const make = async () => {
      made++;
      return image(1);
    };
    const [a, b] = await Promise.all([cache.produce('k', make, limits), cache.produce('k', make, limits)]);
    expect([made, a, cache.get('k')]).toEqual([1, b, a]);
  });

  it('goes on after a copy that could not be made', async () => {
    const cache = new ResizeCache();
    await expect(cache.produce('bad', () => Promise.reject(new Error('not an image')), limits)).rejects.toThrow(
      'not an image',
    );
    expect(await cache.produce('good', async () => image(1), limits)).toEqual(image(1));
  });
});
