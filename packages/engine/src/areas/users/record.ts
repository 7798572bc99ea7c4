import type { Project } from '../../shared/project.js';
import type { StoredUser } from './state.js';

/** The user record (the contract's `User`) as JSON. */
export type UserRecord = Record<string, string | boolean>;

/**
 * The user record (the contract's `User`): the extra registration fields, then the record's own fields.
 * `avatar` only where the spec shows it, the registration response.
 */
export function userRecord(project: Project, user: StoredUser, { withAvatar = false } = {}): UserRecord {
  const record: UserRecord = {
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
