import { ConfigError, resolveConfig } from '../config.js';
import { changes, reads } from '../shared/durability/declarations.js';
import { MAX_CLOCK_OFFSET_SECONDS } from '../shared/clock.js';
import { ErrorCode, badRequest } from '../shared/errors.js';
import { isPlainObject, readJsonObject } from '../shared/http/body.js';
import { createRoutes } from '../shared/http/routes.js';
import { adminKey } from './guard.js';

/** Test and tooling API: reset, clock, outbox, state export/import and live config changes. */
export const adminRoutes = createRoutes();

adminRoutes.use('/__admin/*', adminKey);

// A cheap liveness check for container health checks and load balancers: no key, no state read, no project needed.
adminRoutes.get('/__health', reads, (c) => c.json({ status: 'ok' }));

adminRoutes.post('/__admin/reset', changes(), (c) => {
  c.env.project.reset();
  return c.json({});
});

// The clock as the server reads it, and how far it was moved ahead of real time (the panel shows both).
adminRoutes.get('/__admin/clock', reads, (c) =>
  c.json({ now: c.env.moment.iso(), offsetSeconds: c.env.project.clock.offsetMs / 1000 }),
);

adminRoutes.post('/__admin/clock', changes(), async (c) => {
  const { advanceSeconds } = await readJsonObject(c);
  if (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds) || advanceSeconds < 0) {
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"advanceSeconds" must be a non-negative number');
  }
  const { clock } = c.env.project;
  // Past the bound a date would leave the service's four-digit years (and, far past it, be no date at all).
  if (advanceSeconds > clock.headroomSeconds)
    throw badRequest(
      ErrorCode.CLOCK_OUT_OF_RANGE,
      `"advanceSeconds" may be at most ${clock.headroomSeconds}: the clock runs at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (100 years) ahead of real time`,
    );
  clock.advance(advanceSeconds);
  return c.json({ now: c.env.moment.iso() });
});

adminRoutes.get('/__admin/outbox', reads, (c) => c.json({ messages: c.env.project.outbox }));

adminRoutes.get('/__admin/state', reads, (c) => c.json(c.env.project.exportState()));

// A whole project's state is larger than any request body of the API: it is bounded like an upload. Kept as the
// snapshot it leaves, not as the export it was sent.
adminRoutes.put('/__admin/state', changes({ whole: true, bodyLimit: 'maxUploadBytes' }), async (c) => {
  const body = await readJsonObject(c);
  if (body['areas'] !== undefined && !isPlainObject(body['areas']))
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"areas" must be an object');
  const before = c.env.project.exportState();
  try {
    c.env.project.importState(body);
  } catch (error) {
    // An import that does not fit leaves the state as it was.
    c.env.project.importState(before);
    throw badRequest(ErrorCode.VALIDATION_FAILED, `state could not be imported: ${(error as Error).message}`);
  }
  return c.json({ restored: c.env.project.summary() });
});

adminRoutes.get('/__admin/config', reads, (c) => c.json(c.env.project.config));

adminRoutes.patch('/__admin/config', changes(), async (c) => {
  const { project } = c.env;
  const patch = await readJsonObject(c);
  try {
    project.reconfigure(resolveConfig({ ...project.config, ...patch }));
  } catch (error) {
    if (error instanceof ConfigError) throw badRequest(ErrorCode.VALIDATION_FAILED, error.message);
    throw error;
  }
  return c.json(project.config);
});
