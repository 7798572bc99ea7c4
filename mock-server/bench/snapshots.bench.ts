// Named snapshots: restoring a project of 100,000 rows (target: median ≤ 50 ms) beside importing the same
// export, saving it, and the first write to the table after a restore (which copies its map of rows).
// Run: `npm run bench -w @basekit/mock-server -- snapshots`.
import { createRow, updateRow } from '../../packages/engine/src/areas/database/rows/rows.js';
import { snapshotsOf } from '../../packages/engine/src/shared/durability/snapshots.js';
import type { Principal } from '../../packages/engine/src/shared/env.js';
import { Moment } from '../../packages/engine/src/shared/moment.js';
import { startServer } from '../src/server.js';
import { benchUsers } from './users.js';

const ROWS = 100_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const spread = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;

async function timed(times: number, call: () => Promise<Response>): Promise<number[]> {
  const took: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const res = await call();
    await res.arrayBuffer();
    took.push(performance.now() - started);
    if (!res.ok) throw new Error(`${res.status} ${res.url}`);
  }
  return took;
}

async function main(): Promise<void> {
  const server = await startServer({ port: 0, config: { maxUploadBytes: 1024 ** 3 } });
  const { project } = server.engine;
  const [user] = await benchUsers(server, 1);
  const token = user!.accessToken;
  const moment = new Moment(project.clock);
  const principal: Principal = { ...(await project.tokens.verify(token, moment))!, isMaster: false };
  // Seeded through the engine's core, as the database benchmark does.
  let anyId = '';
  for (let i = 0; i < ROWS; i++)
    anyId = createRow(project, moment, 'Score', { score: Math.floor(Math.random() * 1_000_000), name: `p${i}` })._id;
  const admin = { 'X-Service-Authentication-Key': project.config.masterKey };
  const db = { 'X-Service-Object-Storage-Id': project.config.objectStorageId, Authorization: `Bearer ${token}` };
  // An index of `score`, built by a first query: a restore keeps it. Tried twice: the seeding held the event loop
  // past the keep-alive time of the connection the users were made on, which the client may reuse as it closes.
  const query = () =>
    fetch(`${server.url}/object-storage/classes/query/Score?order=-score&limit=10`, {
      method: 'POST',
      headers: { ...db, 'Content-Type': 'application/json' },
      body: '{}',
    });
  await query().catch(query);
  try {
    const save = await timed(11, () =>
      fetch(`${server.url}/__admin/snapshots/seeded`, { method: 'PUT', headers: admin }),
    );
    // Each restore follows changes, as between two tests: the first write to the table after a restore gives it a
    // map of rows of its own (a copy of the references, see `writableTable`), the next ones do not.
    const restore: number[] = [];
    const writes: [number[], number[]] = [[], []];
    const write = (score: number) =>
      fetch(`${server.url}/object-storage/classes/Score/${anyId}`, {
        method: 'PUT',
        headers: { ...db, 'Content-Type': 'application/json' },
        body: JSON.stringify({ score }),
      });
    for (let i = 0; i < 21; i++) {
      for (const taken of writes) taken.push(...(await timed(1, () => write(i))));
      restore.push(
        ...(await timed(1, () =>
          fetch(`${server.url}/__admin/snapshots/seeded/restore`, { method: 'POST', headers: admin }),
        )),
      );
    }
    // The same in the process, without HTTP: what the engine itself spends, whatever the load on the machine.
    const inProcess: [number[], number[]] = [[], []];
    for (let i = 0; i < 21; i++) {
      let started = performance.now();
      await snapshotsOf(project).restore('seeded', project);
      inProcess[0].push(performance.now() - started);
      started = performance.now();
      updateRow(project, moment, principal, 'Score', anyId, { score: i });
      inProcess[1].push(performance.now() - started);
    }
    const exported = await (await fetch(`${server.url}/__admin/state`, { headers: admin })).text();
    const exportTimes = await timed(5, () => fetch(`${server.url}/__admin/state`, { headers: admin }));
    const importTimes = await timed(5, () =>
      fetch(`${server.url}/__admin/state`, {
        method: 'PUT',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: exported,
      }),
    );
    console.log(
      `${ROWS.toLocaleString('en')} rows (${(exported.length / 1024 ** 2).toFixed(1)} MiB as an export), over HTTP, one call at a time:\n` +
        `  restore a named snapshot   median ${median(restore).toFixed(1)} ms (${spread(restore)} ms, 21 runs; target ≤ 50 ms)\n` +
        `  import the same export     median ${median(importTimes).toFixed(1)} ms (${spread(importTimes)} ms, 5 runs): ` +
        `restore takes ${((100 * median(restore)) / median(importTimes)).toFixed(1)} % of it\n` +
        `  save a named snapshot      median ${median(save).toFixed(1)} ms (${spread(save)} ms, 11 runs)\n` +
        `  first write to the table after a restore median ${median(writes[0]).toFixed(1)} ms (copies its map of rows), ` +
        `the next write ${median(writes[1]).toFixed(1)} ms\n` +
        `  export (GET /__admin/state) median ${median(exportTimes).toFixed(1)} ms (${spread(exportTimes)} ms, 5 runs)\n` +
        `in the process, without HTTP: restore median ${median(inProcess[0]).toFixed(2)} ms, the first write after it ` +
        `${median(inProcess[1]).toFixed(1)} ms (21 runs)`,
    );
  } finally {
    await server.close();
  }
}

await main();
