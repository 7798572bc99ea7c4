import { changes, changesMemoryOnly, reads } from '../shared/durability/declarations.js';
import { createRoutes } from '../shared/http/routes.js';
import { adminKey } from './guard.js';
import { loadOnce } from '../shared/util/load-once.js';

const SNAPSHOTS_PATH = '/__admin/snapshots';

const calls = loadOnce(() => import('./snapshot-calls.js'));

/**
 * `/__admin/snapshots`: save the project whole under a name, restore it (the export afterwards equals the export at
 * save time), list and delete; see `NamedSnapshots` and `snapshot-calls.ts`.
 */
export const snapshotRoutes = createRoutes();

snapshotRoutes.use(SNAPSHOTS_PATH, adminKey);
snapshotRoutes.use(`${SNAPSHOTS_PATH}/*`, adminKey);
// Named snapshots live in memory only; restoring one replaces the whole state, which no replay could repeat: it is
// kept as the journal snapshot it leaves, as an import is.
snapshotRoutes.get(SNAPSHOTS_PATH, reads, async (c) => (await calls()).listSnapshots(c));
snapshotRoutes.put(`${SNAPSHOTS_PATH}/:name`, changesMemoryOnly, async (c) => (await calls()).saveSnapshot(c));
snapshotRoutes.post(`${SNAPSHOTS_PATH}/:name/restore`, changes({ whole: true }), async (c) =>
  (await calls()).restoreSnapshot(c),
);
snapshotRoutes.delete(`${SNAPSHOTS_PATH}/:name`, changesMemoryOnly, async (c) => (await calls()).deleteSnapshot(c));
