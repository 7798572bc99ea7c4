import { expect, it } from 'vitest';
import { loadOnce } from '../src/shared/util/load-once.js';

it('loads a module with its first use only, and gives every later use the same one', async () => {
  let loads = 0;
  const calls = loadOnce(async () => ({ loaded: ++loads }));
  expect(loads).toBe(0);
  const [first, second] = await Promise.all([calls(), calls()]);
  const later = await calls();
  expect(loads).toBe(1);
  expect(second).toBe(first);
  expect(later).toBe(first);
});
