/**
 * `npm run fuzz [-- --runs N --seed S]`: the contract-driven fuzzer for longer than `npm test` runs it.
 * Prints the figures and every kind of violation found; exits 1 when there is one.
 */
import { parseArgs } from 'node:util';
import { loadContract } from './support/contract.js';
import { runFuzz } from './support/fuzzer.js';
import { seededFixture } from './support/seed.js';
import { summarize } from './support/summary.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' } } });
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const numRuns = Number(values.runs);
const started = performance.now();
// The server logs each internal error; the summary below lists them once per kind.
console.error = () => undefined;
const result = await runFuzz({ contract: loadContract(), start: seededFixture, seed, numRuns });
console.log(`${summarize(result)}\nseed ${seed}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(result.violations.length ? 1 : 0);
