// Faults: get-by-id with no fault set beside the same with a fault set on another operation (a failing
// login, which every request checks and passes by), each server in a process of its own, loaded from a third in
// rounds that take turns. With no fault set a request costs one check of the list's length; this shows what a set
// fault costs the requests it does not take. Against a bare Hono hello-world: `get-by-id.bench.ts`.
// Run: `npm run bench -w @basekit/mock-server -- faults` (about 1 minute).
import { compareInRounds, httpContender, loadGenerator, median, startProcess, type BenchProcess } from './processes.js';

interface GetByIdServer {
  url: string;
  headers: Record<string, string>;
  paths: string[];
}

const processes: BenchProcess<GetByIdServer>[] = [];
const generator = loadGenerator();
try {
  const plain = await startProcess<GetByIdServer>('get-by-id');
  const faulted = await startProcess<GetByIdServer>('get-by-id', ['--fault']);
  processes.push(plain, faulted);
  const contender = (name: string, server: BenchProcess<GetByIdServer>) =>
    httpContender(
      name,
      server,
      { url: server.info.url, headers: server.info.headers, requests: server.info.paths.map((path) => ({ path })) },
      generator,
    );
  const { rateRatios, cpuRatios } = await compareInRounds('Get a row by id, 100,000 rows, with and without a fault', [
    contender('no fault set', plain),
    contender('a fault set on another operation', faulted),
  ]);
  const name = 'a fault set on another operation';
  console.log(
    `with a fault set on another operation: ${median(rateRatios.get(name)!).toFixed(2)}× the requests per second, ` +
      `${median(cpuRatios.get(name)!).toFixed(2)}× the CPU time per request of the same server with none`,
  );
} finally {
  generator.close();
  await Promise.all(processes.map((p) => p.close()));
}
