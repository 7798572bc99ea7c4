// Get-by-id (docs/database.md#figures): the reference server answering GET /object-storage/classes/Score/<id> over 1,000 ids of a
// 100,000-row table in turn, next to a bare Hono hello-world and a plain node:http server sending the same bytes
// as that hello-world (the ceiling of any Node server here), each in a process of its own, loaded from a fourth
// in rounds that take turns (10 connections). Target: at least 0.8× the bare Hono hello-world's rate.
// Run: `npm run bench -w @basekit/mock-server -- get-by-id` (about 2 minutes).
import {
  type BenchProcess,
  compareInRounds,
  httpContender,
  loadGenerator,
  median,
  startProcess,
  verdict,
} from './processes.js';

interface GetByIdServer {
  url: string;
  headers: Record<string, string>;
  paths: string[];
}

const processes: BenchProcess<{ url: string }>[] = [];
const generator = loadGenerator();
try {
  const hono = await startProcess<{ url: string }>('hono-hello');
  const node = await startProcess<{ url: string }>('node-hello');
  const basekit = await startProcess<GetByIdServer>('get-by-id');
  processes.push(hono, node, basekit);
  const { url, headers, paths } = basekit.info;
  const { rateRatios, cpuRatios } = await compareInRounds('Get a row by id, 100,000 rows, 1,000 ids in turn', [
    httpContender('a bare Hono hello-world', hono, { url: hono.info.url }, generator),
    httpContender('plain node:http, the same bytes', node, { url: node.info.url }, generator),
    httpContender(
      'get by id (basekit-server)',
      basekit,
      { url, headers, requests: paths.map((path) => ({ path })) },
      generator,
    ),
  ]);
  const rate = median(rateRatios.get('get by id (basekit-server)')!);
  const cpu = median(cpuRatios.get('get by id (basekit-server)')!);
  console.log(`get by id over a bare Hono hello-world by CPU time per request: ${cpu.toFixed(2)}×`);
  process.exitCode = verdict('get by id over a bare Hono hello-world, requests per second', rate, '≥ 0.80', rate >= 0.8)
    ? 0
    : 1;
} finally {
  generator.close();
  await Promise.all(processes.map((p) => p.close()));
}
