import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../shared/env.js';
import { forbidden } from '../shared/errors.js';
import { sameSecret } from '../shared/secrets.js';

/** Admin API calls carry the master key in `X-Service-Authentication-Key` (403 otherwise). Areas reuse it for their own `/__admin` routes. */
export const adminKey = createMiddleware<AppEnv>(async (c, next) => {
  if (!sameSecret(c.req.header('x-service-authentication-key') ?? '', c.env.project.config.masterKey)) {
    throw forbidden('admin API calls need X-Service-Authentication-Key set to the master key');
  }
  await next();
});
