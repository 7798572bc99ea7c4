// Persistence (--data-dir): start-up of a data folder holding 100,000 rows and 10,000 users (target <= 1 s; Parse
// Server with PostgreSQL needs about 1.0 s for 100,000 rows), from its snapshot and after a crash with a full
// journal, and row-create throughput with --data-dir beside the same server in memory at 10 connections, in
// alternating rounds of one run (target >= half).
// Run: `npm run bench -w @basekit/mock-server -- persistence`.
import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateJson } from '@basekit/engine';
import { startServer, type RunningServer } from '../src/server.js';
import { median } from './processes.js';
import { cliReadyTime } from './ready-time.js';
import { type BenchUser, benchUsers, databaseHeaders } from './users.js';

const CONNECTIONS = 10;
const DURATION_SECONDS = 5;
const ROWS = 100_000;
const USERS = 10_000;
const JOURNAL_RECORDS = 10_000; // the default journalCompactAfter: the most a crash can leave to replay

/** Requests per second of row creates at 10 connections. */
async function createRate(server: RunningServer, user: BenchUser): Promise<number> {
  const target = {
    url: `${server.url}/object-storage/classes/Created`,
    method: 'POST',
    headers: databaseHeaders(server, user),
    body: JSON.stringify({ score: 1, name: 'x', tags: ['a'] }),
  };
  await autocannon({ ...target, connections: CONNECTIONS, duration: 1 }); // warm-up
  const result = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_SECONDS });
  if (result.errors || result.non2xx) throw new Error(`${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return Math.round(result.requests.average);
}

async function writeCost(): Promise<void> {
  const rates = { memory: [] as number[], disk: [] as number[] };
  const folder = await mkdtemp(join(tmpdir(), 'basekit-bench-write-'));
  try {
    for (let round = 1; round <= 2; round++) {
      for (const mode of ['memory', 'disk'] as const) {
        const server = await startServer({ port: 0, ...(mode === 'disk' && { dataDir: folder }) });
        const [user] = await benchUsers(server, 1, `w${round}`);
        rates[mode].push(await createRate(server, user!));
        await server.close();
      }
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  const line = (label: string, values: number[]) =>
    console.log(`${label.padEnd(52)} ${String(median(values)).padStart(7)} req/s   [${values.join(', ')}]`);
  line('create row, in memory, 10 connections', rates.memory);
  line('create row, --data-dir, 10 connections', rates.disk);
  console.log(
    `--data-dir / in memory: ${Math.round((100 * median(rates.disk)) / median(rates.memory))} % (target >= 50 %)`,
  );
}

/** A state export with `USERS` users (one password hash shared: hashing 10,000 would take a minute) and `ROWS` rows. */
async function bigState(): Promise<StateJson> {
  const server = await startServer({ port: 0 });
  await benchUsers(server, 1, 'seed');
  const state = server.engine.project.exportState() as StateJson & {
    areas: { users: { users: Record<string, unknown>[] } };
  };
  await server.close();
  const [user] = state.areas.users.users;
  state.areas.users.users = Array.from({ length: USERS }, (_, i) => ({
    ...user,
    userId: `user${String(i).padStart(20, '0')}`,
    username: `player-${i}`,
  }));
  const now = new Date().toISOString();
  const rows = Array.from({ length: ROWS }, (_, i) => ({
    _id: `r${String(i).padStart(9, '0')}`,
    createdAt: now,
    updatedAt: now,
    score: (i * 7919) % 1_000_000,
    name: `player${i}`,
    level: i % 10,
  }));
  state.areas['database'] = {
    Score: { columns: { score: 'Number', name: 'String', level: 'Number' }, rows, relations: {} },
  };
  return state;
}

async function startUp(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'basekit-bench-start-'));
  try {
    // The folder starts from the state (kept at once as its snapshot), then a clean stop.
    const seeded = await startServer({ port: 0, dataDir: folder, initialState: await bigState() });
    await seeded.close();
    const fromSnapshot: number[] = [];
    for (let i = 0; i < 5; i++) fromSnapshot.push(await cliReadyTime(['--data-dir', folder]));

    // A crash with a full journal: the snapshot, then JOURNAL_RECORDS row creates to replay.
    const writer = await startServer({
      port: 0,
      dataDir: folder,
      config: { journalCompactAfter: JOURNAL_RECORDS + 1 },
    });
    const [user] = await benchUsers(writer, 1, 'journal');
    const headers = databaseHeaders(writer, user!);
    for (let i = 0; i < JOURNAL_RECORDS - 2; i++)
      await fetch(`${writer.url}/object-storage/classes/Journal`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ n: i }),
      }).then((r) => r.arrayBuffer());
    const afterCrash = await cliReadyTime(['--data-dir', folder]); // the writer never stopped: its journal is read as a crash left it
    await writer.close();

    const line = (label: string, ms: number, all?: number[]) =>
      console.log(
        `${label.padEnd(64)} ${String(Math.round(ms)).padStart(5)} ms${all ? `   [${all.map(Math.round).join(', ')}]` : ''}`,
      );
    line(
      `start, ${ROWS.toLocaleString('en')} rows + ${USERS.toLocaleString('en')} users in the snapshot (median)`,
      median(fromSnapshot),
      fromSnapshot,
    );
    line(
      `start after a crash: the same + ${JOURNAL_RECORDS.toLocaleString('en')} journal records to replay`,
      afterCrash,
    );
    console.log(
      '(from spawning the built CLI to its "listening on" line; target <= 1,000 ms; Parse Server + PostgreSQL ~1,000 ms for 100,000 rows)',
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await writeCost();
await startUp();
