// Object database benchmark: create, an ordered range query at 10,000, 100,000 and 1,000,000 rows and an equality
// query at 1,000,000 rows (both served by the automatic indexes), the time to load 1,000,000 rows and the memory per
// row with indexes, against a real server (startServer). Get-by-id beside its peers: get-by-id.bench.ts; start-up:
// start.bench.ts.
// Run: `npm run bench -w @basekit/mock-server -- database` or `node --conditions=@basekit/source --import tsx mock-server/bench/database.bench.ts`.
import autocannon from 'autocannon';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRow } from '../../packages/engine/src/areas/database/rows/rows.js';
import { Moment } from '../../packages/engine/src/shared/moment.js';
import { startServer } from '../src/server.js';
import { benchUsers, databaseHeaders } from './users.js';

const DURATION_SECONDS = 5;
const CONNECTIONS = 10;

type Target = { url: string; method?: string; headers?: Record<string, string>; body?: string };

async function measure(name: string, target: Target) {
  await autocannon({ ...target, connections: CONNECTIONS, duration: 1 }); // warm-up: JIT and connections
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_SECONDS });
  if (result.errors || result.non2xx)
    throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  const figures = { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
  console.log(
    `${name.padEnd(52)} ${String(figures.rps).padStart(7)} req/s   p50 ${figures.p50} ms   p99 ${figures.p99} ms`,
  );
  return figures;
}

/** Median and p99 of one request at a time, in fractional milliseconds: the time the server spends on one query. */
async function serviceTime(name: string, target: Target, count = 200): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(target.url, { method: target.method, headers: target.headers, body: target.body });
    await res.arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${name.padEnd(52)} one request at a time: median ${at(0.5)} ms   p99 ${at(0.99)} ms`);
  return Number(at(0.5));
}

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The heap in use after a full collection, in bytes. */
function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  const server = await startServer({ port: 0 });
  const { project } = server.engine;
  const [user] = await benchUsers(server, 1);
  const headers = databaseHeaders(server, user!);
  const moment = new Moment(project.clock);
  // Seeded through the engine's core: 100,000 HTTP creates would take longer than the whole benchmark.
  const seed = (table: string, count: number): string[] =>
    Array.from(
      { length: count },
      (_, i) =>
        createRow(project, moment, table, {
          score: Math.floor(Math.random() * 1_000_000),
          name: `player${i}`,
          level: i % 10,
        })._id,
    );

  try {
    await measure('create row', {
      url: `${server.url}/object-storage/classes/Created/`,
      method: 'POST',
      headers,
      body: JSON.stringify({ score: 1, name: 'x', tags: ['a'] }),
    });
    seed('Score10k', 10_000);
    seed('Score100k', 100_000);
    const heapBefore = heapUsed();
    const loadStarted = performance.now();
    seed('Score1m', 1_000_000);
    console.log(
      `load 1,000,000 rows through the engine core: ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );
    const heapRows = heapUsed();
    const where = JSON.stringify({ score: { $gt: 500_000 } });
    const query = (table: string, order = '?order=-score&limit=100') =>
      `${server.url}/object-storage/classes/query/${table}${order}`;
    // The first query of a column builds its index: timed apart from the medians.
    for (const [table, label] of [
      ['Score10k', '10,000'],
      ['Score100k', '100,000'],
      ['Score1m', '1,000,000'],
    ] as const) {
      const started = performance.now();
      await fetch(query(table), { method: 'POST', headers, body: where });
      console.log(
        `first query of score, ${label} rows (builds the index): ${(performance.now() - started).toFixed(0)} ms`,
      );
    }
    const heapIndexed = heapUsed();
    console.log(
      `memory per row, 1,000,000 rows: ${Math.round((heapRows - heapBefore) / 1_000_000)} bytes, and ${Math.round((heapIndexed - heapRows) / 1_000_000)} bytes for the index of score and creation order`,
    );
    const medians: number[] = [];
    for (const [table, label] of [
      ['Score10k', '10,000'],
      ['Score1m', '1,000,000'],
    ] as const) {
      medians.push(
        await serviceTime(`query $gt + order=-score + limit=100, ${label} rows`, {
          url: query(table),
          method: 'POST',
          headers,
          body: where,
        }),
      );
    }
    console.log(`1,000,000 rows take ${(medians[1]! / medians[0]!).toFixed(2)}x the median of 10,000 rows`);
    await measure('query $gt + order=-score + limit=100, 100,000 rows', {
      url: query('Score100k'),
      method: 'POST',
      headers,
      body: where,
    });
    const equality: Target = {
      url: query('Score1m', ''),
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'player500000' }),
    };
    const started = performance.now();
    await fetch(equality.url, equality);
    console.log(
      `first query of name, 1,000,000 rows (builds the index): ${(performance.now() - started).toFixed(0)} ms`,
    );
    await serviceTime('query name = one value, 1,000,000 rows', equality);
  } finally {
    await server.close();
  }
}

await main();
