import { ApiError, ErrorCode, badRequest } from '../shared/errors.js';
import type { AppContext } from '../shared/env.js';
import { createRoutes } from '../shared/routes.js';
import { snapshotsOf } from '../shared/snapshots.js';
import { adminKey } from './guard.js';

export const SNAPSHOTS_PATH = '/__admin/snapshots';

/** The path of a snapshot's restore: the one snapshot call that changes the project's state. */
export const RESTORE_PATH = /^\/__admin\/snapshots\/[^/]+\/restore$/;

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

/**
 * `/__admin/snapshots`: save the project whole under a name, restore it (the export afterwards equals the export at
 * save time), list and delete; see `NamedSnapshots`.
 */
export const snapshotRoutes = createRoutes();

snapshotRoutes.use(SNAPSHOTS_PATH, adminKey);
snapshotRoutes.use(`${SNAPSHOTS_PATH}/*`, adminKey);

snapshotRoutes.get(SNAPSHOTS_PATH, (c) => c.json({ snapshots: snapshotsOf(c.env.project).list() }));

snapshotRoutes.put(`${SNAPSHOTS_PATH}/:name`, (c) => {
  const name = nameOf(c);
  const { project } = c.env;
  const snapshots = snapshotsOf(project);
  const { maxSnapshots } = project.config;
  if (!snapshots.has(name) && snapshots.size >= maxSnapshots)
    throw new ApiError(
      400,
      ErrorCode.TOO_MANY_SNAPSHOTS,
      `a project keeps at most ${maxSnapshots} snapshots (maxSnapshots): delete one or save under a name in use`,
    );
  return c.json(snapshots.save(name, project), 201);
});

snapshotRoutes.post(`${SNAPSHOTS_PATH}/:name/restore`, async (c) => {
  const name = nameOf(c);
  if (!(await snapshotsOf(c.env.project).restore(name, c.env.project))) throw unknown(name);
  return c.json({});
});

snapshotRoutes.delete(`${SNAPSHOTS_PATH}/:name`, (c) => {
  const name = nameOf(c);
  if (!snapshotsOf(c.env.project).delete(name)) throw unknown(name);
  return c.body(null, 204);
});
