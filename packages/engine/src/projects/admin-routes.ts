import { adminKey } from '../admin/guard.js';
import { ErrorCode, notFound } from '../shared/errors.js';
import type { AppContext } from '../shared/env.js';
import { readJsonObject } from '../shared/http/body.js';
import { createRoutes } from '../shared/http/routes.js';
import type { HostedProject } from './hosted.js';
import { newProjectConfig, refuseServerKeys } from './new-config.js';
import type { ServerProjects } from './server-projects.js';

/** The prefix of the routes below; the engine sends them here before it looks for a request's project. */
export const PROJECTS_ADMIN_PATH = '/__admin/projects';

/** A project as the projects API shows it: its id (the authentication id) and the whole config a client needs. */
const shown = ({ project }: HostedProject) => ({ id: project.config.authenticationId, config: project.config });

/**
 * `/__admin/projects`: create, list, read, change and delete the server's projects, and reset, export and import one.
 * Guarded by the server's admin key, the default project's master key (run with the default project as `project`).
 * What changes one project's state goes through that project's own handling (`forward`), so its journal keeps it.
 */
export function projectsAdminRoutes(projects: ServerProjects) {
  const routes = createRoutes();
  routes.use('/__admin/*', adminKey);

  const projectOf = (c: AppContext) => {
    const hosted = projects.registry.get(c.req.param('id') ?? '');
    if (!hosted) throw notFound(ErrorCode.PROJECT_NOT_FOUND, `no project "${c.req.param('id')}"`);
    return hosted;
  };

  routes.post(PROJECTS_ADMIN_PATH, async (c) => {
    const config = newProjectConfig(projects.registry.defaultProject.project.config, await readJsonObject(c));
    return c.json(shown(await projects.create(config)), 201);
  });

  routes.get(PROJECTS_ADMIN_PATH, (c) => c.json({ projects: projects.registry.list().map(shown) }));

  routes.get(`${PROJECTS_ADMIN_PATH}/:id`, (c) => c.json(shown(projectOf(c))));

  routes.patch(`${PROJECTS_ADMIN_PATH}/:id`, async (c) => {
    const hosted = projectOf(c);
    const patch = await readJsonObject(c);
    refuseServerKeys(patch);
    const res = await forward(c, hosted, 'PATCH', '/__admin/config', JSON.stringify(patch));
    return res.ok ? c.json(shown(hosted)) : res;
  });

  routes.delete(`${PROJECTS_ADMIN_PATH}/:id`, async (c) => {
    await projects.remove(projectOf(c));
    return c.body(null, 204);
  });

  routes.post(`${PROJECTS_ADMIN_PATH}/:id/reset`, (c) => forward(c, projectOf(c), 'POST', '/__admin/reset'));
  routes.get(`${PROJECTS_ADMIN_PATH}/:id/state`, (c) => forward(c, projectOf(c), 'GET', '/__admin/state'));
  routes.put(`${PROJECTS_ADMIN_PATH}/:id/state`, (c) =>
    forward(c, projectOf(c), 'PUT', '/__admin/state', c.req.raw.body),
  );
  return routes;
}

/** Sends one project its own admin call (`path`) with its master key, as a client of that project would. */
function forward(
  c: AppContext,
  hosted: HostedProject,
  method: string,
  path: string,
  body?: BodyInit | null,
): Promise<Response> {
  const { masterKey, headerWord } = hosted.project.config;
  const headers = new Headers({ [`X-${headerWord[0]}-Authentication-Key`]: masterKey });
  if (body) headers.set('Content-Type', 'application/json');
  const url = new URL(path, c.req.url);
  // `duplex` is required for a streamed body and missing from TypeScript's RequestInit.
  return hosted.fetch(new Request(url, { method, headers, ...(body && { body, duplex: 'half' }) } as RequestInit));
}
