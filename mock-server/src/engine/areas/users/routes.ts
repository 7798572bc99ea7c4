import { Hono } from 'hono';
import { projectHeader, serviceEnabled } from '../../shared/auth.js';
import type { AppContext, AppEnv } from '../../shared/env.js';
import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import { readJsonObject } from '../../shared/http.js';
import { login, masterLogin, register, renew, userRecord } from './core.js';

/** Form fields of a login request (multipart, as the spec shows, or URL-encoded). */
async function formFields(c: AppContext): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) return {};
  try {
    const form = await c.req.formData();
    const fields: Record<string, string> = {};
    form.forEach((value, key) => {
      if (typeof value === 'string') fields[key] = value;
    });
    return fields;
  } catch {
    throw badRequest(ErrorCode.VALIDATION_FAILED, 'request body is not a valid form');
  }
}

export const usersRoutes = new Hono<AppEnv>();

usersRoutes.use('/auth/*', serviceEnabled('users'));

usersRoutes.post('/auth/users', projectHeader('x-service-authentication-id', 'authenticationId', 404), async (c) => {
  const user = await register(c.var.project, await readJsonObject(c));
  return c.json(userRecord(c.var.project, user, { withAvatar: true }));
});

// One path, three operations told apart by the key and the refresh flag (spec 4.1 #2-#4).
usersRoutes.post('/auth/login', projectHeader('x-service-authentication-id', 'authenticationId', 417), async (c) => {
  const { project } = c.var;
  const key = c.req.header('x-service-authentication-key');
  if (key === project.config.masterKey) return c.json(await masterLogin(project));
  if (key !== project.config.clientKey) throw new ApiError(417, ErrorCode.INVALID_KEY, 'X-Service-Authentication-Key is missing or incorrect');
  const fields = await formFields(c);
  if (c.req.header('x-service-authentication-refresh') === '1') {
    if (!fields['refresh_token']) throw new ApiError(401, ErrorCode.INVALID_REFRESH_TOKEN, 'form field "refresh_token" is required');
    return c.json(await renew(project, fields['refresh_token']));
  }
  const { username, password } = fields;
  if (!username || !password) throw new ApiError(401, ErrorCode.INVALID_CREDENTIALS, 'form fields "username" and "password" are required');
  return c.json(await login(project, username, password));
});
