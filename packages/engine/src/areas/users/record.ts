import type { Project } from '../../shared/project.js';
import type { StoredUser } from './state.js';

/** The user record of spec 2.1 as JSON. */
export type UserRecord = Record<string, string | boolean>;

/**
 * The user record of spec 2.1: the extra registration fields, then the record's own fields.
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
