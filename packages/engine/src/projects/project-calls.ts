import { ErrorCode, notFound } from '../shared/errors.js';
import type { AppContext } from '../shared/env.js';
import { readJsonObject } from '../shared/http/body.js';
import type { HostedProject } from './hosted.js';
import { newProjectConfig, refuseServerKeys } from './new-config.js';
import type { ServerProjects } from './server-projects.js';

// The projects admin API (`admin-routes.ts`), loaded with its first call: a server's admin tools and the management
// panel make them, an app's page under msw seldom does.

/** A project as the projects API shows it: its id (the authentication id) and the whole config a client needs. */
const shown = ({ project }: HostedProject) => ({ id: project.config.authenticationId, config: project.config });

function projectOf(projects: ServerProjects, c: AppContext): HostedProject {
  const hosted = projects.registry.get(c.req.param('id') ?? '');
  if (!hosted) throw notFound(ErrorCode.PROJECT_NOT_FOUND, `no project "${c.req.param('id')}"`);
  return hosted;
}

export async function createProject(projects: ServerProjects, c: AppContext): Promise<Response> {
  const config = newProjectConfig(projects.registry.defaultProject.project.config, await readJsonObject(c));
  return c.json(shown(await projects.create(config)), 201);
}

export const listProjects = (projects: ServerProjects, c: AppContext): Response =>
  c.json({ projects: projects.registry.list().map(shown) });

export const showProject = (projects: ServerProjects, c: AppContext): Response => c.json(shown(projectOf(projects, c)));

export async function changeProject(projects: ServerProjects, c: AppContext): Promise<Response> {
  const hosted = projectOf(projects, c);
  const patch = await readJsonObject(c);
  refuseServerKeys(patch);
  const res = await forward(c, hosted, 'PATCH', '/__admin/config', JSON.stringify(patch));
  return res.ok ? c.json(shown(hosted)) : res;
}

export async function deleteProject(projects: ServerProjects, c: AppContext): Promise<Response> {
  await projects.remove(projectOf(projects, c));
  return c.body(null, 204);
}

/**
 * One project's own admin call (`path`: its reset, its state's export or import), made for the project the URL
 * names: what changes its state goes through its own handling, so its journal keeps it.
 */
export const forwardToProject = (
  projects: ServerProjects,
  c: AppContext,
  method: string,
  path: string,
  body?: BodyInit | null,
): Promise<Response> => forward(c, projectOf(projects, c), method, path, body);

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
