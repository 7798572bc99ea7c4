import { describe, expect, it } from 'vitest';
import { loadContract } from './support/contract.js';
import { runFuzz } from './support/fuzzer.js';
import { seededFixture } from './support/seed.js';
import { summarize } from './support/summary.js';

/** `npm run fuzz` runs many more cases with other seeds (see docs/reliability.md). */
const SEED = 20_261_122;
const CASES = 1_000;

describe('the contract-driven fuzzer', () => {
  const contract = loadContract();

  it(`keeps every invariant over ${CASES} cases (seed ${SEED}) of every operation`, async () => {
    const result = await runFuzz({ contract, start: seededFixture, seed: SEED, numRuns: CASES });
    console.info(summarize(result));
    expect(Object.keys(result.perOperation).sort()).toEqual(contract.operations.map((op) => op.id).sort());
    expect(result.violations).toEqual([]);
  }, 180_000);
});
