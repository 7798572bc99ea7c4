/**
 * A small seeded generator (mulberry32): the same sequence on every run, so that a failure can be repeated.
 *
 * @example
 * const random = seeded(28);
 * random.pick(['a', 'b']); // the same letter on every run
 */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]): T => list[int(list.length)]! };
}
