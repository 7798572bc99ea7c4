// What the request inspector costs get-by-id: the same server with recording on (inspectorLimit 500, the default)
// and off (0), in short alternating rounds (ABBA), load from another process, requests per second and the server's
// CPU time per request (which does not count time spent waiting for the CPU on a busy machine).
// Run: `npm run bench -w @basekit/mock-server -- inspector`.
import { startServer } from '../src/server.js';
import { type RoundFigures, httpContender, loadGenerator } from './processes.js';
import { benchUsers, databaseHeaders } from './users.js';

const ROUNDS = 10;
const SECONDS = 1;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const spread = (values: number[]) => `${Math.min(...values).toFixed(1)} to ${Math.max(...values).toFixed(1)}`;

async function main(): Promise<void> {
  const server = await startServer({ port: 0 });
  const { masterKey } = server.engine.project.config;
  const generator = loadGenerator();
  try {
    const [user] = await benchUsers(server, 1);
    const headers = databaseHeaders(server, user!);
    const created = await fetch(`${server.url}/object-storage/classes/Score/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ score: 1, name: 'x' }),
    });
    const { _id } = (await created.json()) as { _id: string };
    const target = { url: `${server.url}/object-storage/classes/Score/${_id}`, headers };
    const recording = (inspectorLimit: number) =>
      fetch(`${server.url}/__admin/config`, {
        method: 'PATCH',
        headers: { 'X-Service-Authentication-Key': masterKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ inspectorLimit }),
      });
    // The server runs in this process: its CPU time is this process's (the load comes from another).
    const cpuSeconds = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1e6;
    };
    const getById = httpContender('get by id', { cpuSeconds }, target, generator);
    const measure = async (inspectorLimit: number): Promise<RoundFigures> => {
      await recording(inspectorLimit);
      return getById.run(SECONDS);
    };

    await measure(500); // warm-up: JIT, connections, the token cache
    await measure(0);
    const rpsCosts: number[] = [];
    const cpuCosts: number[] = [];
    const on: RoundFigures[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      let recorded: RoundFigures, plain: RoundFigures;
      if (round % 2) {
        recorded = await measure(500);
        plain = await measure(0);
      } else {
        plain = await measure(0);
        recorded = await measure(500);
      }
      rpsCosts.push(100 * (1 - recorded.rate / plain.rate));
      cpuCosts.push(100 * (recorded.cpuMicros / plain.cpuMicros - 1));
      on.push(recorded);
    }
    console.log(
      `request inspector on get-by-id (inspectorLimit 500 against 0, ${ROUNDS} alternating rounds of ${SECONDS} s): ` +
        `median ${median(rpsCosts).toFixed(1)} % fewer requests per second (rounds ${spread(rpsCosts)} %), ` +
        `median ${median(cpuCosts).toFixed(1)} % more server CPU time per request (rounds ${spread(cpuCosts)} %; ${median(on.map((f) => f.cpuMicros)).toFixed(1)} µs with it)`,
    );
  } finally {
    generator.close();
    await server.close();
  }
}

await main();
