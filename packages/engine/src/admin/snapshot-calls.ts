import { ApiError, ErrorCode, badRequest } from '../shared/errors.js';
import type { AppContext } from '../shared/env.js';
import { snapshotsOf } from '../shared/durability/snapshots.js';

// The admin API of named snapshots (`snapshots.ts`), loaded with its first call.

const NAME = /^[A-Za-z0-9][\w.-]{0,99}$/;

function nameOf(c: AppContext): string {
  const name = c.req.param('name') ?? '';
  if (!NAME.test(name))
    throw badRequest(
      ErrorCode.VALIDATION_FAILED,
      'a snapshot name is 1 to 100 letters, digits, ".", "_" or "-", starting with a letter or digit',
    );
  return name;
}

const unknown = (name: string) =>
  new ApiError(404, ErrorCode.SNAPSHOT_NOT_FOUND, `no snapshot "${name}" (GET /__admin/snapshots lists them)`);

export const listSnapshots = (c: AppContext) => c.json({ snapshots: snapshotsOf(c.env.project).list() });

export function saveSnapshot(c: AppContext): Response {
  const name = nameOf(c);
  const { project, moment } = c.env;
  const snapshots = snapshotsOf(project);
  const { maxSnapshots } = project.config;
  if (!snapshots.has(name) && snapshots.size >= maxSnapshots)
    throw new ApiError(
      400,
      ErrorCode.TOO_MANY_SNAPSHOTS,
      `a project keeps at most ${maxSnapshots} snapshots (maxSnapshots): delete one or save under a name in use`,
    );
  return c.json(snapshots.save(name, project, moment), 201);
}

export async function restoreSnapshot(c: AppContext): Promise<Response> {
  const name = nameOf(c);
  if (!(await snapshotsOf(c.env.project).restore(name, c.env.project))) throw unknown(name);
  return c.json({});
}

export function deleteSnapshot(c: AppContext): Response {
  const name = nameOf(c);
  if (!snapshotsOf(c.env.project).delete(name)) throw unknown(name);
  return c.body(null, 204);
}
