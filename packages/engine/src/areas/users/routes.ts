import { adminKey } from '../../admin/guard.js';
import { bearer, master, projectHeader, serviceEnabled } from '../../shared/auth/middlewares.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import type { AppContext } from '../../shared/env.js';
import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import { intParam, readForm, readJsonObject } from '../../shared/http/body.js';
import { createRoutes } from '../../shared/http/routes.js';
import { sameSecret } from '../../shared/auth/secrets.js';
import {
  activateUser,
  currentUser,
  deleteUser,
  register,
  setPassword,
  updateUser,
  userById,
  userByUsername,
} from './accounts.js';
import { CONFIRMATION_PATH } from '../../shared/confirmation-link.js';
import { confirmRegistration } from './confirmation.js';
import { completeGuestRegistration, registerGuest } from './guests.js';
import {
  PAGE_SIZE,
  countUsers,
  findUsers,
  listUsers,
  searchUsers,
  usersByIds,
  type Paging,
  type UserFilter,
} from './listing.js';
import { userRecord } from './record.js';
import { login, logout, masterLogin, renew, signOutEverywhere } from './sessions.js';
import type { StoredUser } from './state.js';

// A wrong authentication id answers 404 on register, lookups and updates, 417 on login and on search/list/by-ids (docs/errors.md).
const authIdOr404 = projectHeader('x-service-authentication-id', 'authenticationId', 404);
const authIdOr417 = projectHeader('x-service-authentication-id', 'authenticationId', 417);

/** Form fields of a login request (multipart, as the spec shows, or URL-encoded). */
async function formFields(c: AppContext): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(type)) return {};
  const fields: Record<string, string> = {};
  (await readForm(c)).forEach((value, key) => {
    if (typeof value === 'string') fields[key] = value;
  });
  return fields;
}

/** The access level of the caller's key (docs/users.md#keys): 417 unless it is the client or the master key. */
function keyLevel(c: AppContext): 'client' | 'master' {
  const key = c.req.header('x-service-authentication-key') ?? '';
  const { clientKey, masterKey } = c.env.project.config;
  // Both compared, whatever the first answers: the time tells nothing of either key.
  const [isMaster, isClient] = [sameSecret(key, masterKey), sameSecret(key, clientKey)];
  if (isMaster) return 'master';
  if (isClient) return 'client';
  throw new ApiError(417, ErrorCode.INVALID_KEY, 'X-Service-Authentication-Key is missing or incorrect');
}

const paging = (c: AppContext): Paging => ({
  page: intParam(c, 'page', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 }),
  pageSize: intParam(c, 'pageSize', PAGE_SIZE),
});

/** A `true` or `false` query parameter, if given (400 for anything else). */
function flagParam(c: AppContext, name: string): boolean | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'true' && raw !== 'false')
    throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" must be true or false`);
  return raw === 'true';
}

const userFilterOf = (c: AppContext): UserFilter => ({
  text: c.req.query('q')?.trim() || undefined,
  active: flagParam(c, 'active'),
  guest: flagParam(c, 'guest'),
});

const recordOf = (c: AppContext, user: StoredUser) => c.json(userRecord(c.env.project, user));

export const usersRoutes = createRoutes();

usersRoutes.use('/auth/*', serviceEnabled('users'));

usersRoutes.post('/auth/users', changes({ secrets: { json: ['password'] } }), authIdOr404, async (c) => {
  const origin = new URL(c.req.url).origin;
  const user = await register(c.env.project, c.env.moment, await readJsonObject(c), origin);
  return c.json(userRecord(c.env.project, user, { withAvatar: true }));
});

// Beyond the spec (the published Node client's guestSignUp): no body, like its client sends; 201 as it expects.
usersRoutes.post('/auth/guest-users', changes(), authIdOr404, async (c) =>
  c.json(await registerGuest(c.env.project, c.env.moment, await readJsonObject(c, { emptyAllowed: true })), 201),
);

// Beyond the spec (the published Node client's completeGuestRegistration): server-side code, master token.
usersRoutes.post(
  '/auth/guest-users/complete-registration-master',
  changes({ secrets: { json: ['lastPassword', 'newPassword'] } }),
  authIdOr404,
  master(),
  async (c) => recordOf(c, await completeGuestRegistration(c.env.project, c.env.moment, await readJsonObject(c))),
);

// The link of the confirmation e-mail: opened in a browser, so it carries no headers. The one GET that changes state.
usersRoutes.get(`${CONFIRMATION_PATH}/:token`, changes(), (c) =>
  recordOf(c, confirmRegistration(c.env.project, c.req.param('token'))),
);

// One path, three operations told apart by the key and the refresh flag (the contract's `login`).
usersRoutes.post(
  '/auth/login',
  changes({ secrets: { form: ['password', 'refresh_token'] } }),
  authIdOr417,
  async (c) => {
    const { project, moment } = c.env;
    if (keyLevel(c) === 'master') return c.json(await masterLogin(project, moment));
    const fields = await formFields(c);
    if (c.req.header('x-service-authentication-refresh') === '1') {
      if (!fields['refresh_token'])
        throw new ApiError(401, ErrorCode.INVALID_REFRESH_TOKEN, 'form field "refresh_token" is required');
      return c.json(await renew(project, moment, fields['refresh_token']));
    }
    const { username, password } = fields;
    if (!username || !password)
      throw new ApiError(401, ErrorCode.INVALID_CREDENTIALS, 'form fields "username" and "password" are required');
    return c.json(await login(project, moment, username, password));
  },
);

usersRoutes.delete('/auth/logout', changes({ secrets: { query: ['refresh-token'] } }), authIdOr417, async (c) => {
  keyLevel(c); // either key may expire a refresh token
  const refreshToken = c.req.query('refresh-token');
  if (!refreshToken) throw badRequest(ErrorCode.VALIDATION_FAILED, 'query parameter "refresh-token" is required');
  await logout(c.env.project, c.env.moment, refreshToken);
  return c.json({});
});

// Static paths before /auth/users/:userId, which would otherwise take "me" and "search" for ids.
usersRoutes.get('/auth/users/me', reads, authIdOr404, bearer, (c) =>
  recordOf(c, currentUser(c.env.project, c.get('principal'))),
);

usersRoutes.put('/auth/users/me', changes(), authIdOr404, bearer, async (c) => {
  const user = currentUser(c.env.project, c.get('principal'));
  return recordOf(c, updateUser(c.env.project, user, await readJsonObject(c)));
});

usersRoutes.get('/auth/users/search', reads, authIdOr417, master(), async (c) => {
  const word = c.req.query('word');
  if (!word) throw badRequest(ErrorCode.VALIDATION_FAILED, 'query parameter "word" is required');
  return c.json(await searchUsers(c.env.project, word, paging(c)));
});

usersRoutes.get('/auth/users', reads, authIdOr417, master(), (c) => c.json(listUsers(c.env.project, paging(c))));

// Beyond the spec (the published Node client's Users.count); a master operation like listing.
usersRoutes.get('/auth/users/get-number-of-user', reads, authIdOr417, master(), (c) =>
  c.json(countUsers(c.env.project)),
);

usersRoutes.post('/auth/users/by-user-ids', reads, authIdOr417, master(), async (c) =>
  c.json(usersByIds(c.env.project, await readJsonObject(c))),
);

usersRoutes.get('/auth/users/by-username/:username', reads, authIdOr404, bearer, (c) =>
  recordOf(c, userByUsername(c.env.project, c.get('principal'), c.req.param('username'))),
);

usersRoutes.get('/auth/users/:userId', reads, authIdOr404, bearer, (c) =>
  recordOf(c, userById(c.env.project, c.get('principal'), c.req.param('userId'))),
);

usersRoutes.put('/auth/users/:userId', changes(), authIdOr404, master(), async (c) => {
  const user = userById(c.env.project, c.get('principal'), c.req.param('userId'));
  return recordOf(c, updateUser(c.env.project, user, await readJsonObject(c)));
});

// Beyond the spec (the published Node client's Users.delete); master only, like updating another user.
usersRoutes.delete('/auth/users/:userId', changes(), authIdOr404, master(), (c) => {
  deleteUser(c.env.project, c.req.param('userId'));
  return c.json({});
});

// Admin API (not part of the service contract; the panel's user actions the service's API has no operation for).
usersRoutes.get('/__admin/users', reads, adminKey, async (c) =>
  c.json(await findUsers(c.env.project, userFilterOf(c), paging(c))),
);

usersRoutes.put('/__admin/users/:userId/password', changes({ secrets: { json: ['password'] } }), adminKey, async (c) =>
  recordOf(c, await setPassword(c.env.project, c.env.moment, c.req.param('userId'), await readJsonObject(c))),
);

usersRoutes.post('/__admin/users/:userId/activate', changes(), adminKey, (c) =>
  recordOf(c, activateUser(c.env.project, c.req.param('userId'))),
);

usersRoutes.post('/__admin/users/:userId/sign-out', changes(), adminKey, (c) =>
  c.json(signOutEverywhere(c.env.project, c.env.moment, c.req.param('userId'))),
);
