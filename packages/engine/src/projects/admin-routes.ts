import { adminKey } from '../admin/guard.js';
import { createRoutes } from '../shared/http/routes.js';
import { loadOnce } from '../shared/util/load-once.js';
import type { ServerProjects } from './server-projects.js';

/** The prefix of the routes below; the engine sends them here before it looks for a request's project. */
export const PROJECTS_ADMIN_PATH = '/__admin/projects';

const calls = loadOnce(() => import('./project-calls.js'));

/**
 * `/__admin/projects`: create, list, read, change and delete the server's projects, and reset, export and import one.
 * Guarded by the server's admin key, the default project's master key (run with the default project as `project`).
 * What changes one project's state goes through that project's own handling (`forwardToProject`), so its journal
 * keeps it. The calls load with the first one (`project-calls.ts`).
 */
export function projectsAdminRoutes(projects: ServerProjects) {
  const routes = createRoutes();
  routes.use('/__admin/*', adminKey);
  const one = `${PROJECTS_ADMIN_PATH}/:id`;
  routes.post(PROJECTS_ADMIN_PATH, async (c) => (await calls()).createProject(projects, c));
  routes.get(PROJECTS_ADMIN_PATH, async (c) => (await calls()).listProjects(projects, c));
  routes.get(one, async (c) => (await calls()).showProject(projects, c));
  routes.patch(one, async (c) => (await calls()).changeProject(projects, c));
  routes.delete(one, async (c) => (await calls()).deleteProject(projects, c));
  routes.post(`${one}/reset`, async (c) => (await calls()).forwardToProject(projects, c, 'POST', '/__admin/reset'));
  routes.get(`${one}/state`, async (c) => (await calls()).forwardToProject(projects, c, 'GET', '/__admin/state'));
  routes.put(`${one}/state`, async (c) =>
    (await calls()).forwardToProject(projects, c, 'PUT', '/__admin/state', c.req.raw.body),
  );
  return routes;
}
