import { adminKey } from '../admin/guard.js';
import { createRoutes } from '../shared/routes.js';
import { INSPECTOR_PATH } from './recorder.js';

const calls = () => import('./calls.js');

/**
 * The request inspector's admin API: the kept requests (filtered, paged), one in full, the live stream, clearing, the
 * list as HAR, a request sent again (see `calls.ts`).
 */
export const inspectorRoutes = createRoutes();

inspectorRoutes.use(`${INSPECTOR_PATH}/*`, adminKey);
inspectorRoutes.use(INSPECTOR_PATH, adminKey);
inspectorRoutes.get(INSPECTOR_PATH, async (c) => (await calls()).listRequests(c));
inspectorRoutes.delete(INSPECTOR_PATH, async (c) => (await calls()).clearRequests(c));
inspectorRoutes.get(`${INSPECTOR_PATH}/stream`, async (c) => (await calls()).streamRequests(c));
// Before `/:id`, which would take "har" for an id.
inspectorRoutes.get(`${INSPECTOR_PATH}/har`, async (c) => (await calls()).exportHar(c));
inspectorRoutes.get(`${INSPECTOR_PATH}/:id`, async (c) => (await calls()).oneRequest(c));
inspectorRoutes.post(`${INSPECTOR_PATH}/:id/replay`, async (c) => (await calls()).replayRequest(c));
