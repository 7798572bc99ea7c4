import { ApiError, ErrorCode, badRequest, forbidden, notFound, unauthorized } from '../../shared/errors.js';
import type { Principal } from '../../shared/env.js';
import { newId } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { sendConfirmation } from './confirmation.js';
import { hashPassword } from '../../shared/auth/password.js';
import { addUser, changeUser, removeUser, usersState, type StoredUser, type UsersState } from './state.js';
import {
  checkFieldsSize,
  readProfileUpdate,
  readRegistration,
  rejectUnknownKeys,
  requiredString,
} from './validation.js';

/** 409 (code 202) when `username` is registered. */
export function assertUsernameFree(state: UsersState, username: string): void {
  if (state.byUsername.has(username))
    throw new ApiError(409, ErrorCode.USERNAME_TAKEN, `username "${username}" is already taken`);
}

/**
 * Registers a user (the contract's `registerUser`). With `emailConfirmation` on, the user starts inactive and a confirmation
 * e-mail whose link points at `origin` goes to the outbox.
 */
export async function register(
  project: Project,
  moment: Moment,
  body: Record<string, unknown>,
  origin: string,
): Promise<StoredUser> {
  const { profile, password, avatar, extra } = readRegistration(body);
  checkFieldsSize({ ...profile, avatar, extra }, project.config.maxUserFieldsBytes);
  const confirmByEmail = project.config.emailConfirmation;
  if (confirmByEmail && !profile.email) {
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"email" is required: this project confirms registrations by e-mail');
  }
  const state = project.state(usersState);
  assertUsernameFree(state, profile.username);
  const passwordHash = await hashPassword(moment, password, project.capabilities.pbkdf2);
  // Checked again: another registration may have taken the name while the hash was computed.
  assertUsernameFree(state, profile.username);
  const user: StoredUser = {
    userId: newId(moment, 24),
    firstName: '',
    lastName: '',
    email: '',
    phoneNumber: '',
    ...profile,
    avatar,
    guest: false,
    active: !confirmByEmail,
    extra,
    passwordHash,
    createdAt: moment.now(),
  };
  addUser(state, user);
  if (confirmByEmail) sendConfirmation(project, moment, user, origin);
  return user;
}

/** The caller's own user (`/auth/users/me`): a master token belongs to no user (404); a token whose user is gone is incorrect (401). */
export function currentUser(project: Project, caller: Principal): StoredUser {
  if (caller.isMaster)
    throw notFound(ErrorCode.USER_NOT_FOUND, 'a master token belongs to no user: use /auth/users/{userId}');
  const user = project.state(usersState).users.get(caller.userId ?? '');
  if (!user) throw unauthorized('the user of this access token no longer exists');
  return user;
}

/**
 * A user the caller may read (docs/reliability.md#who-can-do-what): the master token reads anyone, a user token only its own user.
 * A user token asking for anyone else gets 403 whether or not that user exists, so it learns nothing.
 */
function readable(project: Project, caller: Principal, user: StoredUser | undefined): StoredUser {
  if (!caller.isMaster && user?.userId !== currentUser(project, caller).userId)
    throw forbidden('a user token may only read its own user');
  if (!user) throw notFound(ErrorCode.USER_NOT_FOUND, 'no such user');
  return user;
}

export function userById(project: Project, caller: Principal, userId: string): StoredUser {
  return readable(project, caller, project.state(usersState).users.get(userId));
}

export function userByUsername(project: Project, caller: Principal, username: string): StoredUser {
  const state = project.state(usersState);
  return readable(project, caller, state.users.get(state.byUsername.get(username) ?? ''));
}

/** Changes a user's profile fields (the contract's `updateCurrentUser` and `updateUser`), all or nothing; 409 when the new username is taken. */
export function updateUser(project: Project, user: StoredUser, body: Record<string, unknown>): StoredUser {
  const profile = readProfileUpdate(body);
  // What the user would store once updated; the ids and the password hash are the server's, not the client's.
  const { userId, passwordHash, ...fields } = user;
  checkFieldsSize({ ...fields, ...profile }, project.config.maxUserFieldsBytes);
  const state = project.state(usersState);
  if (profile.username !== undefined && profile.username !== user.username) assertUsernameFree(state, profile.username);
  changeUser(state, user, profile);
  return user;
}

/** Activates a user without their confirmation e-mail (admin API, the panel's "activate"); 404 for an unknown user. */
export function activateUser(project: Project, userId: string): StoredUser {
  const user = project.state(usersState).users.get(userId);
  if (!user) throw notFound(ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
  user.active = true;
  return user;
}

/**
 * Sets a user's password (admin API, the panel's "set password"): `{"password"}`, a non-empty string. Their sessions
 * stay (signing out everywhere is its own call); 404 for an unknown user.
 */
export async function setPassword(
  project: Project,
  moment: Moment,
  userId: string,
  body: Record<string, unknown>,
): Promise<StoredUser> {
  rejectUnknownKeys(body, ['password']);
  const password = requiredString(body, 'password');
  const user = project.state(usersState).users.get(userId);
  if (!user) throw notFound(ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
  user.passwordHash = await hashPassword(moment, password, project.capabilities.pbkdf2);
  return user;
}

/**
 * Deletes a user (beyond the spec: `DELETE /auth/users/{id}`, the published Node client's `Users.delete`, master
 * only). Their refresh tokens and confirmation links go with them, their access tokens stop working at once (the
 * shared auth refuses tokens of users that no longer exist), and every area that listens lets go of what was theirs
 * (the leaderboards drop their scores). Rows and files they wrote stay.
 */
export function deleteUser(project: Project, userId: string): void {
  const state = project.state(usersState);
  const user = state.users.get(userId);
  if (!user) throw notFound(ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
  removeUser(state, user);
  state.refreshTokens.deleteOfUser(userId);
  for (const [token] of state.confirmations.deleteOfUser(userId)) project.linkDropped(token);
  project.userDeleted(userId);
}
