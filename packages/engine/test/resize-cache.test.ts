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
