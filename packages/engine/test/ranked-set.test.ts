import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RankedSet } from '../src/shared/util/ranked-set.js';

const descending = (a: number, b: number) => b - a;

/** A set and a sorted array, changed in step; every query of the set must match the array. */
function model(compare: (a: number, b: number) => number) {
  const set = new RankedSet<number>(compare);
  let sorted: number[] = [];
  return {
    set,
    insert(n: number) {
      const fresh = !sorted.includes(n);
      expect(set.insert(n)).toBe(fresh);
      if (fresh) sorted = [...sorted, n].sort(compare);
    },
    remove(n: number) {
      expect(set.remove(n)).toBe(sorted.includes(n));
      sorted = sorted.filter((m) => m !== n);
    },
    check(probes: number[]) {
      expect(set.size).toBe(sorted.length);
      expect(set.values()).toEqual(sorted);
      for (const n of probes) expect(set.rankOf(n)).toBe(sorted.indexOf(n));
    },
    get sorted() {
      return sorted;
    },
  };
}

describe('RankedSet', () => {
  it('keeps items in comparator order with their positions', () => {
    const set = new RankedSet<number>(descending);
    for (const n of [5, 9, 7, 1]) set.insert(n);
    expect(set.values()).toEqual([9, 7, 5, 1]);
    expect(set.rankOf(7)).toBe(1);
    expect(set.rankOf(1)).toBe(3);
    expect(set.rankOf(4)).toBe(-1);
    expect(set.at(0)).toBe(9);
    expect(set.at(4)).toBeUndefined();
    expect(set.at(-1)).toBeUndefined();
  });

  it('refuses an item equal to one it holds and removes only what it holds', () => {
    const set = new RankedSet<number>(descending);
    expect(set.insert(3)).toBe(true);
    expect(set.insert(3)).toBe(false);
    expect(set.size).toBe(1);
    expect(set.remove(4)).toBe(false);
    expect(set.remove(3)).toBe(true);
    expect(set.remove(3)).toBe(false);
    expect(set.size).toBe(0);
    expect(set.values()).toEqual([]);
  });

  it('finds items by order, not identity', () => {
    const set = new RankedSet<{ n: number }>((a, b) => a.n - b.n);
    set.insert({ n: 2 });
    set.insert({ n: 1 });
    expect(set.rankOf({ n: 2 })).toBe(1);
    expect(set.remove({ n: 1 })).toBe(true);
    expect(set.rankOf({ n: 2 })).toBe(0);
  });

  it('slices like Array.prototype.slice within the set', () => {
    const m = model(descending);
    for (let n = 0; n < 300; n++) m.insert((n * 7919) % 1000);
    for (const [start, end] of [
      [0, 10],
      [-5, 3],
      [295, 310],
      [120, 120],
      [130, 125],
      [64, 65],
      [0, 300],
      [299, 300],
      [300, 301],
    ] as const) {
      expect(m.set.slice(start, end)).toEqual(m.sorted.slice(Math.max(start, 0), end));
    }
    expect(m.set.slice(250)).toEqual(m.sorted.slice(250));
  });

  it('stays right through growth to several levels and shrinking back (splits and merges)', () => {
    const m = model((a, b) => a - b);
    const values = Array.from({ length: 6000 }, (_, i) => (i * 104729) % 6007);
    for (const n of values) m.set.insert(n);
    for (const [i, n] of m.set.values().entries()) expect(m.set.rankOf(n)).toBe(i);
    // Remove all but every 50th, from the middle outwards, then put half back.
    for (const n of values) if (n % 50 !== 0) expect(m.set.remove(n)).toBe(true);
    const left = values.filter((n) => n % 50 === 0).sort((a, b) => a - b);
    expect(m.set.values()).toEqual(left);
    for (const [i, n] of left.entries()) expect(m.set.rankOf(n)).toBe(i);
    for (const n of values) if (n % 2 === 1) m.set.insert(n);
    const back = [...left, ...values.filter((n) => n % 2 === 1 && n % 50 !== 0)].sort((a, b) => a - b);
    expect(m.set.values()).toEqual(back);
    expect(m.set.slice(1000, 1010)).toEqual(back.slice(1000, 1010));
    expect(m.set.size).toBe(back.length);
  });

  it('agrees with a sorted array under any sequence of inserts and removes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 400 })), { maxLength: 1500 }),
        (operations) => {
          const m = model(descending);
          for (const [insert, n] of operations) {
            if (insert) m.insert(n);
            else m.remove(n);
          }
          m.check([0, 1, 200, 399, 400]);
          const start = m.sorted.length >> 1;
          expect(m.set.slice(start, start + 7)).toEqual(m.sorted.slice(start, start + 7));
        },
      ),
      { numRuns: 60 },
    );
  });
});
