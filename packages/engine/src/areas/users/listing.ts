import { ErrorCode, badRequest } from '../../shared/errors.js';
import type { Project } from '../../shared/project.js';
import type { SubstringIndex } from '../../shared/util/substring-index.js';
import { containsFolded, foldText } from '../../shared/util/text-search.js';
import { userRecord, type UserRecord } from './record.js';
import { type StoredUser, type UsersState, searchTexts, usersState } from './state.js';
import { rejectUnknownKeys } from './validation.js';

/** The user list response (the contract's `UserList`); `userCount` counts every match, not just this page. */
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
const MAX_IDS = 100;

/** Every user, in registration order (the contract's `listUsers`): the page alone is read, whatever the number of users. */
export function listUsers(project: Project, { page, pageSize }: Paging): UserList {
  const { users, order } = project.state(usersState);
  const start = page * pageSize;
  return { userCount: users.size, users: order.slice(start, start + pageSize).map((u) => userRecord(project, u)) };
}

/** How many users the project has, guests included (beyond the spec: the published Node client's `Users.count`). */
export function countUsers(project: Project): { numberOfUser: number } {
  return { numberOfUser: project.state(usersState).users.size };
}

/**
 * The users by the pieces of their searched fields, built from every user at the first search after the state was
 * made (start-up, an import, a restore, a reset); the state's own helpers keep it up to date from then on.
 */
async function searchIndex(state: UsersState): Promise<SubstringIndex<StoredUser>> {
  if (!state.search) {
    // Loaded with the first search, so that a page of msw that never searches does not fetch it.
    const { SubstringIndex } = await import('../../shared/util/substring-index.js');
    // Checked again: another search may have built it while the module loaded.
    if (!state.search) {
      const index = new SubstringIndex<StoredUser>();
      for (const user of state.users.values()) index.add(user, searchTexts(user));
      state.search = index;
    }
  }
  return state.search;
}

/**
 * Users whose firstName, lastName, username or email contains `word` (not empty), ignoring case (the contract's
 * `searchUsers`), in registration order. Read through the search index (`searchIndex`): the cost follows the users
 * that may match, not the number of users, and `userCount` counts every match.
 */
export async function searchUsers(project: Project, word: string, paging: Paging): Promise<UserList> {
  const needle = word.toLowerCase();
  const state = project.state(usersState);
  const matches = [...(await searchIndex(state)).candidates(needle)].filter((u) =>
    [u.firstName, u.lastName, u.username, u.email].some((value) => value.toLowerCase().includes(needle)),
  );
  return pageOf(project, state, matches, paging);
}

/** Which users the admin API's search keeps (the panel's Users page): every given part must match. */
export interface UserFilter {
  /** The user's id, or a text found in the username, names, e-mail or phone number, ignoring case and accents. */
  text?: string;
  active?: boolean;
  guest?: boolean;
}

/**
 * Users matching `filter`, in registration order (admin API, beyond the spec): a person's name is found however it
 * is typed (`garcia` finds `García`), and a user id pasted whole finds its user. A text is looked up in the search
 * index, as the service's search is; without one, every user is read when `active` or `guest` is given (a filter on
 * a column no index keeps), and only the page otherwise.
 */
export async function findUsers(project: Project, filter: UserFilter, paging: Paging): Promise<UserList> {
  const state = project.state(usersState);
  const { text, active, guest } = filter;
  const needle = text === undefined ? '' : foldText(text);
  if (needle === '' && active === undefined && guest === undefined) return listUsers(project, paging);
  const keeps = (u: StoredUser) =>
    (active === undefined || u.active === active) && (guest === undefined || u.guest === guest);
  if (needle === '') return pageOf(project, state, [...state.users.values()].filter(keeps), paging);
  const matches = [...(await searchIndex(state)).candidates(needle)].filter((u) =>
    containsFolded([u.username, u.firstName, u.lastName, u.email, u.phoneNumber], needle),
  );
  const byId = state.users.get(text!);
  if (byId && !matches.includes(byId)) matches.push(byId);
  return pageOf(project, state, matches.filter(keeps), paging);
}

/** One page of `matches` (any order, each once) in registration order; `userCount` counts them all. */
function pageOf(project: Project, state: UsersState, matches: StoredUser[], { page, pageSize }: Paging): UserList {
  const start = page * pageSize;
  const users = matches.sort(state.order.compare).slice(start, start + pageSize);
  return { userCount: matches.length, users: users.map((u) => userRecord(project, u)) };
}

/**
 * The users of a `{userIds}` body (the contract's `getUsersByIds`), in the order asked; unknown ids are left out and a
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
