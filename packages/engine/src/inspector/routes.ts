import { adminKey } from '../admin/guard.js';
import { changesMemoryOnly, reads } from '../shared/durability/declarations.js';
import { createRoutes } from '../shared/http/routes.js';
import { INSPECTOR_PATH } from './recorder.js';
import { loadOnce } from '../shared/util/load-once.js';

const calls = loadOnce(() => import('./calls.js'));

/**
 * The request inspector's admin API: the kept requests (filtered, paged), one in full, the live stream, clearing, the
 * list as HAR, a request sent again (see `calls.ts`).
 */
export const inspectorRoutes = createRoutes();

inspectorRoutes.use(`${INSPECTOR_PATH}/*`, adminKey);
inspectorRoutes.use(INSPECTOR_PATH, adminKey);
inspectorRoutes.get(INSPECTOR_PATH, reads, async (c) => (await calls()).listRequests(c));
inspectorRoutes.delete(INSPECTOR_PATH, changesMemoryOnly, async (c) => (await calls()).clearRequests(c));
inspectorRoutes.get(`${INSPECTOR_PATH}/stream`, reads, async (c) => (await calls()).streamRequests(c));
// Before `/:id`, which would take "har" for an id.
inspectorRoutes.get(`${INSPECTOR_PATH}/har`, reads, async (c) => (await calls()).exportHar(c));
inspectorRoutes.get(`${INSPECTOR_PATH}/:id`, reads, async (c) => (await calls()).oneRequest(c));
// The replay's own request is kept as any other request; recording the replay too would send it twice at start-up.
inspectorRoutes.post(`${INSPECTOR_PATH}/:id/replay`, changesMemoryOnly, async (c) => (await calls()).replayRequest(c));
