import { expect, it } from 'vitest';
import { bundleApp } from '../bench/bundle.js';

const isRe2js = (input: string) => input.includes('node_modules/re2js/');

it('keeps re2js out of what loads with the page: a lazy chunk, fetched on the first $regex query', async () => {
  const { initial, lazy } = await bundleApp('src/index.ts');
  expect(initial.flatMap((chunk) => chunk.inputs).filter(isRe2js)).toEqual([]);
  expect(lazy.filter((chunk) => chunk.inputs.some(isRe2js))).toHaveLength(1);
}, 60_000);
