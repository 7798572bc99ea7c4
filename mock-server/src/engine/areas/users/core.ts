import type { Project } from '../../shared/project.js';
import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import { newId, newSecret } from '../../shared/ids.js';
import { hashPassword, verifyPassword } from './password.js';
import { usersState, type StoredUser } from './state.js';

export const PROFILE_FIELDS = ['username', 'firstName', 'lastName', 'email', 'phoneNumber'] as const;
const NAME_LIMIT = 40;

/** The user record of spec 2.1; `avatar` only where the spec shows it (the registration response). */
export function userRecord(project: Project, user: StoredUser, { withAvatar = false } = {}): Record<string, unknown> {
  const record: Record<string, unknown> = {
    ...user.extra,
    instanceId: project.config.authenticationId,
    userId: user.userId,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    guest: user.guest,
    active: user.active,
  };
  if (withAvatar) record['avatar'] = user.avatar;
  return record;
}

function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw badRequest(ErrorCode.VALIDATION_FAILED, `"${field}" is required and must be a non-empty string`);
  return value;
}

/** Checks the profile fields present in `body`: strings, 40-character names, a valid e-mail. */
export function validateProfile(body: Record<string, unknown>): void {
  for (const field of PROFILE_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw badRequest(ErrorCode.VALIDATION_FAILED, `"${field}" must be a string`);
    if (field !== 'email' && field !== 'phoneNumber' && value.length > NAME_LIMIT) {
      throw badRequest(ErrorCode.VALIDATION_FAILED, `"${field}" must be at most ${NAME_LIMIT} characters`);
    }
  }
  if (body['username'] === '') throw badRequest(ErrorCode.VALIDATION_FAILED, '"username" must not be empty');
  const email = body['email'];
  if (typeof email === 'string' && email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    throw badRequest(ErrorCode.INVALID_EMAIL, `"${email}" is not a valid e-mail address`);
  }
}

export async function register(project: Project, body: Record<string, unknown>): Promise<StoredUser> {
  const username = requireString(body, 'username');
  const password = requireString(body, 'password');
  validateProfile(body);
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if ((PROFILE_FIELDS as readonly string[]).includes(key) || key === 'password' || key === 'avatar') continue;
    if (typeof value !== 'string') throw badRequest(ErrorCode.VALIDATION_FAILED, `extra field "${key}" must be a string`);
    extra[key] = value;
  }
  if (body['avatar'] !== undefined && typeof body['avatar'] !== 'string') throw badRequest(ErrorCode.VALIDATION_FAILED, '"avatar" must be a string');
  const state = project.state(usersState);
  if (state.byUsername.has(username)) throw new ApiError(409, ErrorCode.USERNAME_TAKEN, `username "${username}" is already taken`);
  const passwordHash = await hashPassword(password);
  // Checked again: another registration may have taken the name while the hash was computed.
  if (state.byUsername.has(username)) throw new ApiError(409, ErrorCode.USERNAME_TAKEN, `username "${username}" is already taken`);
  const user: StoredUser = {
    userId: newId(24),
    username,
    firstName: (body['firstName'] as string | undefined) ?? '',
    lastName: (body['lastName'] as string | undefined) ?? '',
    email: (body['email'] as string | undefined) ?? '',
    phoneNumber: (body['phoneNumber'] as string | undefined) ?? '',
    avatar: (body['avatar'] as string | undefined) ?? '',
    guest: false,
    active: !project.config.emailConfirmation,
    extra,
    passwordHash,
    createdAt: project.clock.now(),
  };
  state.users.set(user.userId, user);
  state.byUsername.set(username, user.userId);
  return user;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
  refresh_token?: string;
  expires_in: number;
  scope: 'client' | 'master';
  jti: string;
}

async function clientTokens(project: Project, userId: string, refreshToken: string): Promise<TokenResponse> {
  const access = await project.tokens.issue('client', project.config.accessTokenTtlSeconds, userId);
  return { access_token: access.token, token_type: 'bearer', refresh_token: refreshToken, expires_in: access.expiresIn, scope: 'client', jti: access.jti };
}

export async function login(project: Project, username: string, password: string): Promise<TokenResponse> {
  const state = project.state(usersState);
  const user = state.users.get(state.byUsername.get(username) ?? '');
  if (!user || !(await verifyPassword(password, user.passwordHash))) {
    throw new ApiError(401, ErrorCode.INVALID_CREDENTIALS, 'username or password is incorrect');
  }
  if (!user.active) throw new ApiError(401, ErrorCode.USER_INACTIVE, 'this user has not confirmed the registration e-mail yet');
  const refreshToken = newSecret();
  state.refreshTokens.set(refreshToken, { userId: user.userId, expiresAt: project.clock.now() + project.config.refreshTokenTtlSeconds * 1000 });
  return clientTokens(project, user.userId, refreshToken);
}

/** A new access token for a valid refresh token; the refresh token itself stays valid (no rotation). */
export async function renew(project: Project, refreshToken: string): Promise<TokenResponse> {
  const state = project.state(usersState);
  const entry = state.refreshTokens.get(refreshToken);
  if (!entry || entry.expiresAt <= project.clock.now() || !state.users.get(entry.userId)?.active) {
    throw new ApiError(401, ErrorCode.INVALID_REFRESH_TOKEN, 'refresh token is incorrect or expired');
  }
  return clientTokens(project, entry.userId, refreshToken);
}

export async function masterLogin(project: Project): Promise<TokenResponse> {
  const access = await project.tokens.issue('master', project.config.accessTokenTtlSeconds);
  return { access_token: access.token, token_type: 'bearer', expires_in: access.expiresIn, scope: 'master', jti: access.jti };
}
