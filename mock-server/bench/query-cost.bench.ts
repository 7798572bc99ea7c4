// What a unit of the query cost budget (maxQueryCost, packages/engine/src/areas/database/query/budget.ts) is worth in time:
// each query shape is run in the engine (no HTTP), its time set against the units it was charged, and the time a query
// of that shape would take at the whole default budget is printed. The default is chosen so that the slowest shape
// stays near 100 ms (docs/reliability.md, "Limits"). Each shape is sized near the default budget (time per unit grows
// past it, with garbage collection of large answers), and the machine should be quiet. Each shape does the work its
// name says: a count with no where is answered from the table's size (1 unit), so it is printed apart, and shapes
// that visit rows all have a where.
// Run: `npm run bench -w @basekit/mock-server -- query-cost`.
import { DEFAULT_CONFIG, createEngine, resolveConfig } from '@basekit/engine';
import { QueryBudget } from '../../packages/engine/src/areas/database/query/budget.js';
import { createRow } from '../../packages/engine/src/areas/database/rows/rows.js';
import { Moment } from '../../packages/engine/src/shared/moment.js';
import { engineMasterToken } from './users.js';

const RUNS = 7;

// The units the last query was charged, summed through the budget's charge method (`query` sets it to 0).
let charged = 0;
const charge = QueryBudget.prototype.charge;
QueryBudget.prototype.charge = function (this: QueryBudget, units: number) {
  charged += units;
  charge.call(this, units);
};

const defaultBudget = resolveConfig(DEFAULT_CONFIG).maxQueryCost;
const engine = createEngine({
  config: { ...DEFAULT_CONFIG, maxQueryCost: Number.MAX_SAFE_INTEGER, maxJsonBodyBytes: 16 * 1024 * 1024 },
});
const headers = {
  'X-Service-Object-Storage-Id': DEFAULT_CONFIG.objectStorageId,
  'Content-Type': 'application/json',
  Authorization: `Bearer ${await engineMasterToken(engine)}`,
};

const words = 'the quick brown fox jumps over the lazy dog and keeps running far away ';
const moment = new Moment(engine.project.clock);
const fill = (table: string, count: number, row: (i: number) => Record<string, unknown>) => {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(createRow(engine.project, moment, table, row(i))._id);
  return ids;
};
fill('Wide', 100_000, (i) => ({ score: (i * 7919) % 100_000, name: `n${i}`, tags: ['red', 'blue', `t${i % 10}`] }));
fill('Text', 10_000, (i) => ({
  score: (i * 7919) % 10_000,
  text: words.repeat(14).slice(0, 1000),
  asc: i,
  self: { __type: 'Pointer', className: 'Text', _id: 'x' },
}));
const big = fill('Big', 1000, (i) => ({ blob: 'x'.repeat(10_000), n: i }));
fill('Refs', 100, () => ({ refs: big.slice(0, 100).map((_id) => ({ __type: 'Pointer', className: 'Big', _id })) }));

const count = 'limit=0&count=1';
const shapes: [string, string, string, unknown][] = [
  ['visit 100,000 rows, plain $ne', 'Wide', count, { name: { $ne: '' } }],
  ['plain $gt, 80,000 of 100,000 rows (scan)', 'Wide', count, { score: { $gt: 20_000 } }],
  ['plain $gt, 40,000 of 100,000 rows (index)', 'Wide', count, { score: { $gt: 60_000 } }],
  ['array contains (mingo), 100,000 rows', 'Wide', count, { tags: 'red' }],
  ['$exists (mingo), 100,000 rows', 'Wide', count, { name: { $exists: true } }],
  [
    '$in 25,000 values, 100,000 rows (index)',
    'Wide',
    count,
    { score: { $in: Array.from({ length: 25_000 }, (_, i) => i * 4) } },
  ],
  ['$all, 100,000 rows', 'Wide', count, { tags: { $all: ['red', 't3'] } }],
  [
    '$or of 10 (mingo), 10,000 rows',
    'Text',
    count,
    { $or: Array.from({ length: 10 }, (_, i) => ({ text: `nope${i}` })) },
  ],
  [
    '$in 50,000 values, 10,000 rows',
    'Text',
    count,
    { score: { $in: Array.from({ length: 50_000 }, (_, i) => i * 2 + 100_000) } },
  ],
  ['$inQuery, 10,000 rows', 'Text', count, { self: { $inQuery: { className: 'Text', where: {} } } }],
  [
    '$select, 10,000 rows',
    'Text',
    count,
    { score: { $select: { query: { className: 'Text', where: {} }, key: 'asc' } } },
  ],
  // With `count` and a where, an ordered page is kept in a heap over every row (not read from the index of its
  // `order` column, nor counted from the table's size).
  ['order, limit 100 (heap), 100,000 rows', 'Wide', 'limit=100&order=-score&keys=score&count=1', { name: { $ne: '' } }],
  [
    'order, every row into the heap, 10,000 rows',
    'Text',
    'limit=1000&skip=900&order=-asc&keys=asc&count=1',
    { text: { $ne: '' } },
  ],
  ['order, sort of 100,000 rows', 'Wide', 'limit=100&skip=5000&order=-score,name&keys=score', {}],
  ['1,000 rows of 10 KB answered', 'Big', 'limit=1000', {}],
  ['20 rows including 100 rows of 10 KB each', 'Refs', 'limit=20&include=refs', {}],
  ['$regex "foxy", 10,000 texts of 1 KB', 'Text', count, { text: { $regex: 'foxy' } }],
  ['$regex of classes, 10,000 texts of 1 KB', 'Text', count, { text: { $regex: '[a-z]{1,9}q'.repeat(9) } }],
  [
    '$regex of alternatives, 10,000 texts of 1 KB',
    'Text',
    count,
    { text: { $regex: 'alpha|beta|gamma|delta|epsilonz' } },
  ],
  [
    '$regex pattern of 5,000 characters, compiled',
    'Text',
    count,
    { score: -1, text: { $regex: '[a-z]{1,9}q'.repeat(500) } },
  ],
];

async function query(table: string, params: string, where: unknown): Promise<number> {
  charged = 0;
  const started = performance.now();
  const res = await engine.fetch(
    new Request(`http://bench/object-storage/classes/query/${table}?${params}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(where),
    }),
  );
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${table}?${params}: ${res.status}`);
  return performance.now() - started;
}

async function median(table: string, params: string, where: unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await query(table, params, where));
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

console.log(`default maxQueryCost ${defaultBudget.toLocaleString('en')} units; median of ${RUNS} runs each`);
const keptCount = await median('Wide', count, {});
console.log(
  `${'count 100,000 rows, no where (the kept size)'.padEnd(48)} ${keptCount.toFixed(1).padStart(7)} ms ${charged.toLocaleString('en').padStart(11)} units  (no row visited: not a measure of a unit)`,
);
let slowest = 0;
for (const [name, table, params, where] of shapes) {
  const ms = await median(table, params, where);
  const nsPerUnit = (ms * 1e6) / charged;
  slowest = Math.max(slowest, nsPerUnit);
  const atBudget = (nsPerUnit * defaultBudget) / 1e6;
  console.log(
    `${name.padEnd(48)} ${ms.toFixed(1).padStart(7)} ms ${charged.toLocaleString('en').padStart(11)} units ${nsPerUnit.toFixed(0).padStart(5)} ns/unit  -> ${atBudget.toFixed(0).padStart(4)} ms at the default budget`,
  );
}
console.log(
  `slowest shape: ${slowest.toFixed(0)} ns a unit, so a query at the whole default budget takes at most about ${((slowest * defaultBudget) / 1e6).toFixed(0)} ms`,
);
