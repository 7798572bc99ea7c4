import { adminKey } from '../admin/guard.js';
import { ApiError, ErrorCode, notFound } from '../shared/errors.js';
import { readJsonObject } from '../shared/http.js';
import { randomBytes } from '../shared/ids.js';
import { createRoutes } from '../shared/routes.js';
import { faultsOf } from './faults.js';
import { parseFault } from './parse.js';

export const FAULTS_PATH = '/__admin/faults';

/** `/__admin/faults`: set, list and remove the faults of the project an admin call names. */
export const faultsRoutes = createRoutes();

faultsRoutes.use(FAULTS_PATH, adminKey);
faultsRoutes.use(`${FAULTS_PATH}/*`, adminKey);

faultsRoutes.post(FAULTS_PATH, async (c) => {
  const { project } = c.env;
  const spec = parseFault(await readJsonObject(c), project.config);
  const faults = faultsOf(project);
  if (faults.size >= project.config.maxFaults)
    throw new ApiError(
      400,
      ErrorCode.TOO_MANY_FAULTS,
      `a project holds at most ${project.config.maxFaults} faults (maxFaults): remove some first`,
    );
  // Drawn from the engine's random source and shown, so that a run can be repeated by giving the same seed.
  if (spec.probability !== undefined) spec.seed ??= new DataView(randomBytes(4).buffer).getUint32(0);
  return c.json(faults.add(spec, project.clock.iso()).view(), 201);
});

faultsRoutes.get(FAULTS_PATH, (c) =>
  c.json({
    faults: faultsOf(c.env.project)
      .list()
      .map((fault) => fault.view()),
  }),
);

faultsRoutes.delete(FAULTS_PATH, (c) => {
  faultsOf(c.env.project).clear();
  return c.body(null, 204);
});

faultsRoutes.delete(`${FAULTS_PATH}/:id`, (c) => {
  const id = c.req.param('id');
  if (!faultsOf(c.env.project).remove(id)) throw notFound(ErrorCode.FAULT_NOT_FOUND, `no fault "${id}" is set`);
  return c.body(null, 204);
});
