// Many projects in one server: the time to create a project over the admin API (median, p95); 500 projects
// each with a user, a few rows, a file and a score, and the memory each takes; and the latency of two requests
// (GET /auth/users/me, a row by id) with 1 project, then spread over 500, in the same server. Requests are made
// through the SDK, as a test would; the HTTP load runs in a worker thread (http-load.mjs).
// Run: `npm run bench -w @basekit/mock-server -- projects` or `node --conditions=@basekit/source --import tsx --expose-gc mock-server/bench/projects.bench.ts`.
import { createClient } from '../../packages/sdk/src/index.js';
import { startServer } from '../src/server.js';
import { createTestProject, type TestClientOptions, type TestProject } from '../src/testing.js';
import { overHttp as load, type HttpFigures } from './load.js';

const PROJECTS = 500;
const ROWS = 3;
const FILE_BYTES = 1024;
const HTTP_SAMPLES = 1_000;
const DURATION_SECONDS = 2;
const CONNECTIONS = 10;
const LOAD = { samples: HTTP_SAMPLES, connections: CONNECTIONS, durationSeconds: DURATION_SECONDS };
/** The load generator on `url`, each request with the next headers. */
const overHttp = (url: string, headers: Record<string, string>[]) => load({ url, headers }, LOAD);

const GAME = {
  events: [{ name: 'match_end', fields: ['score'] }],
  leaderboards: [{ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] }],
};

/** The headers of the two measured requests for one project's user. */
interface Requests {
  me: Record<string, string>;
  row: { path: string; headers: Record<string, string> };
}

/** Fills a project as a test would: a user who signs in, ROWS rows, a file and a score. */
async function populate(options: TestClientOptions): Promise<Requests> {
  const client = createClient(options);
  await client.auth.register({ username: 'ann', password: 'pw-ann' });
  await client.auth.login('ann', 'pw-ann');
  const notes = client.db.table<{ title: string }>('Note');
  const ids: string[] = [];
  for (let i = 0; i < ROWS; i++) ids.push((await notes.create({ title: `note ${i}` }))._id);
  await client.files.upload([{ path: 'photos', name: 'a.bin', file: new Uint8Array(FILE_BYTES) }]);
  await client.leaderboards.sendEvent('match_end', { score: 100 });
  const { accessToken } = (await client.auth.session())!;
  const bearer = { Authorization: `Bearer ${accessToken}` };
  return {
    me: { ...bearer, 'X-Service-Authentication-Id': options.authenticationId },
    row: {
      path: `/object-storage/classes/Note/${ids[0]}`,
      headers: { ...bearer, 'X-Service-Object-Storage-Id': options.objectStorageId },
    },
  };
}

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  gc();
  return process.memoryUsage().heapUsed;
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;
const micro = (n: number) => `${n.toFixed(0)} µs`;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

async function main(): Promise<void> {
  const server = await startServer({ port: 0 });
  const adminKey = server.engine.project.config.masterKey;
  try {
    // One project, filled like each of the 500 below, for the "1 project" column.
    const first = await createTestProject({ url: server.url, adminKey, config: GAME });
    const alone = await populate(first.clientOptions);
    const one = {
      me: await overHttp(`${server.url}/auth/users/me`, [alone.me]),
      row: await overHttp(`${server.url}${alone.row.path}`, [alone.row.headers]),
    };

    const before = heap();
    const rssBefore = process.memoryUsage().rss;
    const createTimes: number[] = [];
    const projects: TestProject[] = [first];
    for (let i = 1; i < PROJECTS; i++) {
      const started = performance.now();
      projects.push(await createTestProject({ url: server.url, adminKey, config: GAME }));
      createTimes.push(performance.now() - started);
    }
    const created = heap();
    const requests = [alone];
    const filling = performance.now();
    for (const project of projects.slice(1)) requests.push(await populate(project.clientOptions));
    const fillSeconds = (performance.now() - filling) / 1000;
    const filled = heap();
    const rssFilled = process.memoryUsage().rss;

    // GET /auth/users/me from each project's user in turn; a row by id of the project added last.
    const last = requests.at(-1)!;
    const many = {
      me: await overHttp(
        `${server.url}/auth/users/me`,
        requests.map((r) => r.me),
      ),
      row: await overHttp(`${server.url}${last.row.path}`, [last.row.headers]),
    };

    createTimes.sort((a, b) => a - b);
    const added = PROJECTS - 1;
    console.log(
      `creating a project (POST /__admin/projects through createTestProject, ${added} in a row): median ${ms(percentile(createTimes, 0.5))}, p95 ${ms(percentile(createTimes, 0.95))}, max ${ms(createTimes.at(-1)!)}`,
    );
    console.log(
      `filling them through the SDK (register, log in, ${ROWS} rows, an upload, an event): ${fillSeconds.toFixed(1)} s, ${((fillSeconds * 1000) / added).toFixed(1)} ms a project`,
    );
    console.log(
      `memory per project (heap after GC): ${kib((created - before) / added)} empty; ${kib((filled - before) / added)} with a user, ${ROWS} rows, a ${FILE_BYTES} B file and a score; resident memory ${kib((rssFilled - rssBefore) / added)} per filled project`,
    );
    console.log('');
    console.log(
      `| request | 1 project: median | p99 | req/s (${CONNECTIONS} connections) | ${PROJECTS} projects: median | p99 | req/s |`,
    );
    console.log('|---|---|---|---|---|---|---|');
    const row = (name: string, a: HttpFigures, b: HttpFigures) =>
      console.log(
        `| ${name} | ${micro(a.median)} | ${micro(a.p99)} | ${a.rps.toLocaleString('en')} | ${micro(b.median)} | ${micro(b.p99)} | ${b.rps.toLocaleString('en')} |`,
      );
    row(`GET /auth/users/me (${PROJECTS} projects: each request from another project's user)`, one.me, many.me);
    row(`GET a row by id (${PROJECTS} projects: in the project added last)`, one.row, many.row);
  } finally {
    await server.close();
  }
}

await main();
