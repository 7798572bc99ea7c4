import { createMiddleware } from 'hono/factory';
import type { ServiceName } from '../../config.js';
import type { AppEnv, AppContext, Principal } from '../env.js';
import { ApiError, ErrorCode, forbidden, unauthorized } from '../errors.js';
import { loadOnce } from '../util/load-once.js';

/** Why a token is refused, told in detail: loaded with the first token refused. */
const refusals = loadOnce(() => import('./refusal.js'));

/** The access token of an `Authorization: <token_type> <access_token>` header (one space; `bearer` in any case). */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^bearer ([^\s]+)$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The caller of a request, from its access token for this project; 401 saying why when there is none: no header, a
 * header not of the form `<token_type> <access_token>`, a token refused (see `refusal.ts`), or the token of
 * a user that no longer exists (after an admin reset, or a restart of a server that keeps users in memory): a
 * signature outlives its user, access must not.
 */
async function principalOf(c: AppContext): Promise<Principal> {
  const header = c.req.header('authorization');
  if (header === undefined) throw unauthorized('the Authorization header is missing: send "Bearer <access_token>"');
  const token = bearerToken(header);
  if (!token)
    throw unauthorized('the Authorization header is not "<token_type> <access_token>" (token type bearer, one space)');
  const { project, moment } = c.env;
  const claims = project.tokens.verified(token, moment) ?? (await project.tokens.verify(token, moment));
  if (!claims) throw unauthorized(await (await refusals()).refusal(project, token, moment));
  if (claims.userId !== undefined && !project.directory.has(claims.userId))
    throw unauthorized('the user of this access token no longer exists');
  return { ...claims, isMaster: claims.scope === 'master' };
}

/** Requires a valid access token (client or master): 401 otherwise. */
export const bearer = createMiddleware<AppEnv>(async (c, next) => {
  c.set('principal', await principalOf(c));
  await next();
});

/**
 * Requires a master token. A valid client token is refused with `clientStatus`:
 * 403 by default, 401 where docs/errors.md says so (file storage).
 */
export function master(clientStatus: 401 | 403 = 403) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const principal = await principalOf(c);
    if (!principal.isMaster) {
      const message = "this operation requires the master token; this is a user's token (scope client)";
      throw clientStatus === 401 ? unauthorized(message) : forbidden(message);
    }
    c.set('principal', principal);
    await next();
  });
}

/**
 * Requires a project header to carry this project's id (for example `X-Service-Object-Storage-Id` = objectStorageId).
 * A missing or wrong id answers `status` (the spec's status for a wrong id varies by area).
 */
export function projectHeader(
  header: string,
  key: 'authenticationId' | 'objectStorageId' | 'storageId' | 'gameId',
  status: 404 | 417,
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const value = c.req.header(header);
    if (value !== c.env.project.config[key]) {
      throw new ApiError(
        status,
        ErrorCode.UNKNOWN_PROJECT,
        value ? `unknown ${header} "${value}"` : `header ${header} is required`,
      );
    }
    await next();
  });
}

/** Refuses every request while the service is switched off in the config (`services`). */
export function serviceEnabled(service: ServiceName, status: 417 | 503 = 503) {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!c.env.project.config.services[service])
      throw new ApiError(status, ErrorCode.SERVICE_DISABLED, `the ${service} service is disabled`);
    await next();
  });
}
