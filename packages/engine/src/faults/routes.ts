import { adminKey } from '../admin/guard.js';
import { changesMemoryOnly, reads } from '../shared/durability/declarations.js';
import { createRoutes } from '../shared/http/routes.js';
import { loadOnce } from '../shared/util/load-once.js';

const FAULTS_PATH = '/__admin/faults';

const calls = loadOnce(() => import('./calls.js'));

/** `/__admin/faults`: set, list and remove the faults of the project an admin call names (see `calls.ts`). */
export const faultsRoutes = createRoutes();

faultsRoutes.use(FAULTS_PATH, adminKey);
faultsRoutes.use(`${FAULTS_PATH}/*`, adminKey);
// Faults live in memory only, for the server's run: a restart starts with none.
faultsRoutes.post(FAULTS_PATH, changesMemoryOnly, async (c) => (await calls()).setFault(c));
faultsRoutes.get(FAULTS_PATH, reads, async (c) => (await calls()).listFaults(c));
faultsRoutes.delete(FAULTS_PATH, changesMemoryOnly, async (c) => (await calls()).clearFaults(c));
faultsRoutes.delete(`${FAULTS_PATH}/:id`, changesMemoryOnly, async (c) => (await calls()).removeFault(c));
