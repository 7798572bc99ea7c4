// Stored rows written the same way share one hidden class (V8's "map"), so a scan reads their columns through one
// inline cache. When every row had a hidden class of its own (a write copied the row with `{ ...row }`, then added
// its columns), every read of a column over a large table missed that cache: a scan of 100,000 rows took about 60 ms
// instead of 4 (docs/reliability.md, "The query budget: what a unit is worth"). Read through V8's own test hook.
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseState } from '../../src/areas/database/state.js';
import type { Row } from '../../src/areas/database/state.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { masterAuth } from '../support/users.js';
import { database, seed, type Database } from './support.js';

setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

let server: TestServer;
let db: Database;
beforeAll(async () => {
  server = await startTestServer();
  db = database(server, await masterAuth(server));
});
afterAll(() => server.close());

const storedRows = (table: string): Row[] => [
  ...server.engine.project.state(databaseState).tables.get(table)!.rows.values(),
];

/** How many of `rows` have another hidden class than the row before them. */
const changesOfHiddenClass = (rows: Row[]) =>
  rows.filter((row, i) => i > 0 && !sameHiddenClass(rows[i - 1]!, row)).length;

it('rows created alike share one hidden class', async () => {
  await seed(
    db,
    'Alike',
    Array.from({ length: 200 }, (_, i) => ({ score: i, name: `n${i}`, tags: ['red'] })),
  );
  expect(changesOfHiddenClass(storedRows('Alike'))).toBe(0);
});

it('rows updated alike share one hidden class, also when the update adds a column', async () => {
  const ids = await seed(
    db,
    'Updated',
    Array.from({ length: 200 }, (_, i) => ({ score: i })),
  );
  for (const id of ids) expect((await db.update('Updated', id, { score: 1, added: 'x' })).status).toBe(200);
  expect(changesOfHiddenClass(storedRows('Updated'))).toBe(0);
});
