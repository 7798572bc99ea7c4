import { ApiError, ErrorCode, notFound } from '../shared/errors.js';
import type { AppContext } from '../shared/env.js';
import { readJsonObject } from '../shared/http/body.js';
import { Fault } from './fault.js';
import { faultsOf } from './faults.js';
import { parseFault } from './parse.js';

// The admin API of faults (`routes.ts`), loaded with its first call: apps that mock the service rarely set a fault.

export async function setFault(c: AppContext): Promise<Response> {
  const { project, moment } = c.env;
  const spec = parseFault(await readJsonObject(c), project.config);
  const faults = faultsOf(project);
  if (faults.size >= project.config.maxFaults)
    throw new ApiError(
      400,
      ErrorCode.TOO_MANY_FAULTS,
      `a project holds at most ${project.config.maxFaults} faults (maxFaults): remove some first`,
    );
  // Drawn from the request's random source and shown, so that a run can be repeated by giving the same seed.
  if (spec.probability !== undefined) spec.seed ??= new DataView(moment.random(4).buffer).getUint32(0);
  return c.json(faults.add(new Fault(faults.nextId(), spec, moment.iso())).view(), 201);
}

export const listFaults = (c: AppContext) =>
  c.json({
    faults: faultsOf(c.env.project)
      .list()
      .map((fault) => fault.view()),
  });

export function clearFaults(c: AppContext): Response {
  faultsOf(c.env.project).clear();
  return c.body(null, 204);
}

export function removeFault(c: AppContext): Response {
  const id = c.req.param('id') ?? '';
  if (!faultsOf(c.env.project).remove(id)) throw notFound(ErrorCode.FAULT_NOT_FOUND, `no fault "${id}" is set`);
  return c.body(null, 204);
}
