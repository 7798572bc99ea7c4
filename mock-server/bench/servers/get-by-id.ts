// The reference server with a table of 100,000 rows (seeded through the engine's core), alone in its process. Prints
// the address, the headers of a user's request and the paths of 1,000 rows spread over the table.
import { createRow } from '../../../packages/engine/src/areas/database/rows.js';
import { startServer } from '../../src/server.js';
import { benchUsers } from '../users.js';

const ROWS = 100_000;
const server = await startServer({ port: 0 });
const { project } = server.engine;
const [user] = await benchUsers(server, 1);
const ids = Array.from(
  { length: ROWS },
  (_, i) =>
    createRow(project, 'Score', {
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
console.log(`ready ${JSON.stringify({ url: server.url, headers, paths })}`);
