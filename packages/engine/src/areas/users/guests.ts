import { ApiError, ErrorCode, badRequest, notFound } from '../../shared/errors.js';
import { newId, newSecret } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { assertUsernameFree } from './accounts.js';
import { hashPassword, verifyPassword } from '../../shared/auth/password.js';
import { userRecord, type UserRecord } from './record.js';
import { addUser, changeUser, usersState, type StoredUser } from './state.js';
import { readProfile, rejectUnknownKeys, requiredString } from './validation.js';

/** A new guest as the published client reads it: the user record, the id again as `id`, and the generated password. */
export type GuestCredentials = UserRecord & { id: string; password: string };

/** The fields of a guest registration completion (beyond the spec: the published Node client's `completeGuestRegistration`). */
const COMPLETION_FIELDS = [
  'userId',
  'newUsername',
  'lastPassword',
  'newPassword',
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
] as const;

/** A username no one has: `guest-` and 16 random letters and digits. */
function freeGuestName(project: Project, moment: Moment): string {
  const { byUsername } = project.state(usersState);
  for (;;) {
    const username = `guest-${newId(moment, 16)}`;
    if (!byUsername.has(username)) return username;
  }
}

/**
 * Registers a guest (beyond the spec: `POST /auth/guest-users`, the published Node client's `guestSignUp`): a user
 * with a generated username and password and `guest: true`, active at once (a guest has no e-mail to confirm).
 * The body must be empty (or `{}`). The answer is the only place the password is ever shown.
 *
 * @example
 * const { id, username, password } = await registerGuest(project, moment, {}); // then log in with them
 */
export async function registerGuest(
  project: Project,
  moment: Moment,
  body: Record<string, unknown>,
): Promise<GuestCredentials> {
  const field = Object.keys(body)[0];
  if (field !== undefined)
    throw badRequest(
      ErrorCode.VALIDATION_FAILED,
      `"${field}" cannot be set: a guest registration takes no fields, the server chooses them`,
    );
  const password = newSecret(moment, 12);
  const passwordHash = await hashPassword(moment, password, project.capabilities.pbkdf2);
  const state = project.state(usersState);
  const user: StoredUser = {
    userId: newId(moment, 24),
    username: freeGuestName(project, moment),
    firstName: '',
    lastName: '',
    email: '',
    phoneNumber: '',
    avatar: '',
    guest: true,
    active: true,
    extra: {},
    passwordHash,
    createdAt: moment.now(),
  };
  addUser(state, user);
  return { ...userRecord(project, user), id: user.userId, password };
}

/** The guest `userId` names: 404 when there is none, 409 when the user is no (longer a) guest. */
function guestOf(project: Project, userId: string): StoredUser {
  const user = project.state(usersState).users.get(userId);
  if (!user) throw notFound(ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
  if (!user.guest)
    throw new ApiError(409, ErrorCode.NOT_A_GUEST, `user "${userId}" is not a guest: its registration is complete`);
  return user;
}

/**
 * Turns a guest into a registered user (beyond the spec: `POST /auth/guest-users/complete-registration-master`, the
 * published Node client's `completeGuestRegistration`, with the master token): a new username and password in
 * place of the generated ones, profile fields, `guest: false`. `lastPassword` must be the guest's current password.
 * The user keeps their id, sessions and data. All or nothing.
 *
 * @example
 * await completeGuestRegistration(project, moment, { userId, newUsername: 'ann', lastPassword, newPassword: 's3cret' });
 */
export async function completeGuestRegistration(
  project: Project,
  moment: Moment,
  body: Record<string, unknown>,
): Promise<StoredUser> {
  rejectUnknownKeys(body, COMPLETION_FIELDS);
  const userId = requiredString(body, 'userId');
  const username = requiredString(body, 'newUsername');
  const lastPassword = requiredString(body, 'lastPassword');
  const newPassword = requiredString(body, 'newPassword');
  const { firstName, lastName, email, phoneNumber } = body;
  const profile = { ...readProfile({ username, firstName, lastName, email, phoneNumber }), username };
  const state = project.state(usersState);
  const guest = guestOf(project, userId);
  assertUsernameFree(state, username);
  if (!(await verifyPassword(moment, lastPassword, guest.passwordHash, project.capabilities.pbkdf2))) {
    throw badRequest(ErrorCode.INVALID_CREDENTIALS, '"lastPassword" is not the guest\'s current password');
  }
  const passwordHash = await hashPassword(moment, newPassword, project.capabilities.pbkdf2);
  // Checked again: another request may have completed this guest or taken the name while the hashes were computed.
  guestOf(project, userId);
  assertUsernameFree(state, username);
  changeUser(state, guest, { ...profile, passwordHash, guest: false });
  return guest;
}
