import { ApiError, ErrorCode } from '../../shared/errors.js';
import { newSecret } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { verifyPassword } from '../../shared/auth/password.js';
import { usersState } from './state.js';
import { secretTokenDigest } from './token-digest.js';

/** The token response (the contract's `TokenResponse`). */
export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  /** Present for user login and renewal, absent for master login. */
  refresh_token?: string;
  expires_in: number;
  scope: 'client' | 'master';
  jti: string;
}

async function clientTokens(
  project: Project,
  moment: Moment,
  userId: string,
  refreshToken: string,
): Promise<TokenResponse> {
  const access = await project.tokens.issue(moment, 'client', project.config.accessTokenTtlSeconds, userId);
  return {
    access_token: access.token,
    token_type: 'bearer',
    refresh_token: refreshToken,
    expires_in: access.expiresIn,
    scope: 'client',
    jti: access.jti,
  };
}

/** User login (the contract's `login`): an access token and a new refresh token that lives `refreshTokenTtlSeconds`. */
export async function login(
  project: Project,
  moment: Moment,
  username: string,
  password: string,
): Promise<TokenResponse> {
  const state = project.state(usersState);
  const user = state.users.get(state.byUsername.get(username) ?? '');
  if (!user || !(await verifyPassword(moment, password, user.passwordHash, project.capabilities.pbkdf2))) {
    throw new ApiError(401, ErrorCode.INVALID_CREDENTIALS, 'username or password is incorrect');
  }
  // After the password check, so that the answer tells nothing about a user to someone without the password.
  if (!user.active)
    throw new ApiError(401, ErrorCode.USER_INACTIVE, 'this user has not confirmed the registration e-mail yet');
  const now = moment.now();
  // Expired tokens are dropped here, by a request that succeeds (a failed renewal must change nothing), earliest first:
  // each costs O(log n), whatever the number of tokens kept.
  state.refreshTokens.dropExpired(now);
  const refreshToken = newSecret(moment);
  state.refreshTokens.add(await secretTokenDigest(moment, refreshToken), {
    userId: user.userId,
    expiresAt: now + project.config.refreshTokenTtlSeconds * 1000,
  });
  return clientTokens(project, moment, user.userId, refreshToken);
}

/** Renewal (the contract's `login`): a new access token for a valid refresh token, which itself stays valid (no rotation). */
export async function renew(project: Project, moment: Moment, refreshToken: string): Promise<TokenResponse> {
  const { refreshTokens, users } = project.state(usersState);
  const entry = refreshTokens.get(await secretTokenDigest(moment, refreshToken));
  if (!entry || entry.expiresAt <= moment.now() || !users.get(entry.userId)?.active) {
    throw new ApiError(401, ErrorCode.INVALID_REFRESH_TOKEN, 'refresh token is incorrect or expired');
  }
  return clientTokens(project, moment, entry.userId, refreshToken);
}

/** Master login (the contract's `login`): a master access token, no refresh token. */
export async function masterLogin(project: Project, moment: Moment): Promise<TokenResponse> {
  const access = await project.tokens.issue(moment, 'master', project.config.accessTokenTtlSeconds);
  return {
    access_token: access.token,
    token_type: 'bearer',
    expires_in: access.expiresIn,
    scope: 'master',
    jti: access.jti,
  };
}

/**
 * Logout (the contract's `logout`): expires the refresh token. Idempotent: an unknown or already expired token is
 * just as logged out afterwards. Access tokens already issued stay valid until their `expires_in`.
 */
export async function logout(project: Project, moment: Moment, refreshToken: string): Promise<void> {
  project.state(usersState).refreshTokens.delete(await secretTokenDigest(moment, refreshToken));
}

/**
 * Signs a user out everywhere (admin API, the panel's "sign out"): expires every refresh token of theirs, as a logout
 * of each would, and answers how many were still valid. Their access tokens stay valid until their `expires_in`, as after a logout. 404 for an unknown user.
 */
export function signOutEverywhere(project: Project, moment: Moment, userId: string): { expiredRefreshTokens: number } {
  const state = project.state(usersState);
  if (!state.users.has(userId)) throw new ApiError(404, ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
  const now = moment.now();
  const removed = state.refreshTokens.deleteOfUser(userId);
  return { expiredRefreshTokens: removed.filter(([, { expiresAt }]) => expiresAt > now).length };
}
