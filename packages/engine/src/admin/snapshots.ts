import { createRoutes } from '../shared/routes.js';
import { adminKey } from './guard.js';

export const SNAPSHOTS_PATH = '/__admin/snapshots';

/** The path of a snapshot's restore: the one snapshot call that changes the project's state. */
export const RESTORE_PATH = /^\/__admin\/snapshots\/[^/]+\/restore$/;

const calls = () => import('./snapshot-calls.js');

/**
 * `/__admin/snapshots`: save the project whole under a name, restore it (the export afterwards equals the export at
 * save time), list and delete; see `NamedSnapshots` and `snapshot-calls.ts`.
 */
export const snapshotRoutes = createRoutes();

snapshotRoutes.use(SNAPSHOTS_PATH, adminKey);
snapshotRoutes.use(`${SNAPSHOTS_PATH}/*`, adminKey);
snapshotRoutes.get(SNAPSHOTS_PATH, async (c) => (await calls()).listSnapshots(c));
snapshotRoutes.put(`${SNAPSHOTS_PATH}/:name`, async (c) => (await calls()).saveSnapshot(c));
snapshotRoutes.post(`${SNAPSHOTS_PATH}/:name/restore`, async (c) => (await calls()).restoreSnapshot(c));
snapshotRoutes.delete(`${SNAPSHOTS_PATH}/:name`, async (c) => (await calls()).deleteSnapshot(c));
