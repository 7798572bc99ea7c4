import { ErrorCode, badRequest } from '../../shared/errors.js';
import type { Project } from '../../shared/project.js';
import { userRecord, type UserRecord } from './record.js';
import { usersState, type StoredUser } from './state.js';
import { rejectUnknownKeys } from './validation.js';

/** The user list response of spec 2.3; `userCount` counts every match, not just this page. */
export interface UserList {
  userCount: number;
  users: UserRecord[];
}

/** Which slice of a listing: `page` from 0, `pageSize` users per page. */
export interface Paging {
  page: number;
  pageSize: number;
}

export const PAGE_SIZE = { min: 1, max: 100, fallback: 20 };
/** At most this many ids in one by-ids request. */
export const MAX_IDS = 100;

function pageOf(project: Project, matches: StoredUser[], { page, pageSize }: Paging): UserList {
  const start = page * pageSize;
  return {
    userCount: matches.length,
    users: matches.slice(start, start + pageSize).map((u) => userRecord(project, u)),
  };
}

/** Every user, in registration order (spec 4.1 #12). */
export function listUsers(project: Project, paging: Paging): UserList {
  return pageOf(project, [...project.state(usersState).users.values()], paging);
}

/** How many users the project has, guests included (beyond the spec: the published Node client's `Users.count`). */
export function countUsers(project: Project): { numberOfUser: number } {
  return { numberOfUser: project.state(usersState).users.size };
}

/** Users whose firstName, lastName, username or email contains `word`, ignoring case (spec 4.1 #11). */
export function searchUsers(project: Project, word: string, paging: Paging): UserList {
  const needle = word.toLowerCase();
  const matches = [...project.state(usersState).users.values()].filter((u) =>
    [u.firstName, u.lastName, u.username, u.email].some((value) => value.toLowerCase().includes(needle)),
  );
  return pageOf(project, matches, paging);
}

/**
 * The users of a `{userIds}` body (spec 4.1 #13), in the order asked; unknown ids are left out and a
 * repeated id is answered once, so `userCount` is the number of users returned.
 */
export function usersByIds(project: Project, body: Record<string, unknown>): UserList {
  rejectUnknownKeys(body, ['userIds']);
  const { userIds } = body;
  if (!Array.isArray(userIds) || !userIds.every((id) => typeof id === 'string')) {
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"userIds" must be an array of strings');
  }
  if (userIds.length > MAX_IDS)
    throw badRequest(ErrorCode.VALIDATION_FAILED, `"userIds" may hold at most ${MAX_IDS} ids`);
  const { users } = project.state(usersState);
  const found = [...new Set(userIds)].flatMap((id) => users.get(id) ?? []);
  return { userCount: found.length, users: found.map((u) => userRecord(project, u)) };
}
