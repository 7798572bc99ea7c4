import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../shared/env.js';
import { forbidden } from '../shared/errors.js';
import { sameSecret } from '../shared/auth/secrets.js';

/** Admin API calls carry the master key in `X-Service-Authentication-Key` (403 otherwise). Areas reuse it for their own `/__admin` routes. */
export const adminKey = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header('x-service-authentication-key') ?? '';
  const { masterKey, clientKey } = c.env.project.config;
  if (!sameSecret(key, masterKey)) {
    throw forbidden(
      key === ''
        ? 'admin API calls need X-Service-Authentication-Key set to the master key; none was sent'
        : sameSecret(key, clientKey)
          ? 'admin API calls need X-Service-Authentication-Key set to the master key, not the client key'
          : "admin API calls need X-Service-Authentication-Key set to the master key; this is not this project's",
    );
  }
  await next();
});
