// The reference server with a table of 100,000 rows (seeded through the engine's core), alone in its process. Prints
// the address, the headers of a user's request and the paths of 1,000 rows spread over the table. With `--fault`, a
// fault is set on another operation (a failing login), which every request then checks and passes by.
import { createRow } from '../../../packages/engine/src/areas/database/rows/rows.js';
import { Moment } from '../../../packages/engine/src/shared/moment.js';
import { startServer } from '../../src/server.js';
import { benchUsers } from '../users.js';

const ROWS = 100_000;
const server = await startServer({ port: 0 });
const { project } = server.engine;
const [user] = await benchUsers(server, 1);
const moment = new Moment(project.clock);
const ids = Array.from(
  { length: ROWS },
  (_, i) =>
    createRow(project, moment, 'Score', {
      score: Math.floor(Math.random() * 1_000_000),
      name: `player${i}`,
      level: i % 10,
    })._id,
);
const headers = {
  'X-Service-Object-Storage-Id': project.config.objectStorageId,
  Authorization: `Bearer ${user!.accessToken}`,
};
const paths = Array.from({ length: 1000 }, (_, i) => `/object-storage/classes/Score/${ids[(i * 997) % ROWS]}`);
if (process.argv.includes('--fault')) {
  // Tried twice: the seeding held the event loop past the keep-alive time of the connection the user was made on,
  // which the client may reuse as the server closes it.
  const setFault = () =>
    fetch(`${server.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'X-Service-Authentication-Key': project.config.masterKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ method: 'POST', path: '/auth/login', status: 503 }),
    });
  const set = await setFault().catch(setFault);
  if (set.status !== 201) throw new Error(`setting the fault failed: ${set.status}`);
}
console.log(`ready ${JSON.stringify({ url: server.url, headers, paths })}`);
