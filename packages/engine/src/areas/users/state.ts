import type { StateSlice } from '../../shared/project.js';
import { RankedSet } from '../../shared/util/ranked-set.js';
import type { SubstringIndex } from '../../shared/util/substring-index.js';
import { foldText } from '../../shared/util/text-search.js';
import { OwnedSecrets } from './owned-secrets.js';
import { type RefreshToken, RefreshTokens } from './refresh-tokens.js';
import { tokenDigest } from './token-digest.js';

export interface StoredUser {
  userId: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  avatar: string;
  guest: boolean;
  active: boolean;
  /** Extra string fields given at registration. */
  extra: Record<string, string>;
  passwordHash: string;
  createdAt: number;
}

/** The users in registration order, by position: a page of a listing costs O(log n + page size), never a copy of all. */
class RegistrationOrder {
  readonly #seq = new WeakMap<StoredUser, number>();
  #next = 0;
  /** Registration order: negative when `a` registered before `b`. */
  readonly compare = (a: StoredUser, b: StoredUser): number => this.#seq.get(a)! - this.#seq.get(b)!;
  readonly #set = new RankedSet<StoredUser>(this.compare);

  add(user: StoredUser): void {
    this.#seq.set(user, this.#next++);
    this.#set.insert(user);
  }

  remove(user: StoredUser): void {
    this.#set.remove(user);
  }

  /** The users at positions `start` to `end - 1`. */
  slice(start: number, end: number): StoredUser[] {
    return this.#set.slice(start, end);
  }
}

export interface UsersState {
  /** userId -> user, in registration order (the order of listings and searches). */
  users: Map<string, StoredUser>;
  /** username -> userId */
  byUsername: Map<string, string>;
  /** The users by position in registration order (listings). */
  order: RegistrationOrder;
  /**
   * The users by the pieces of their searched fields (`searchTexts`), which a search reads instead of every user:
   * made by the first search (`listing.ts`), kept by the helpers below from then on.
   */
  search?: SubstringIndex<StoredUser>;
  /** The digest of each refresh token (`tokenDigest`) and its session: the tokens themselves are never kept. */
  refreshTokens: RefreshTokens;
  /** The confirmation token of each e-mail link, and its user. */
  confirmations: OwnedSecrets<{ userId: string }>;
}

interface UsersJson {
  users: StoredUser[];
  /** By their digests. */
  refreshTokenDigests?: [string, RefreshToken][];
  /** The tokens themselves, as exports before state format 2 kept them: digested on import. */
  refreshTokens?: [string, RefreshToken][];
  confirmations?: [string, string][];
}

function toJSON(s: UsersState): UsersJson {
  return {
    users: [...s.users.values()],
    refreshTokenDigests: [...s.refreshTokens],
    confirmations: Array.from(s.confirmations, ([token, { userId }]) => [token, userId]),
  };
}

function fromJSON(json: unknown): UsersState {
  const { users, refreshTokenDigests = [], refreshTokens = [], confirmations = [] } = json as UsersJson;
  const state = emptyState();
  for (const user of users) addUser(state, user);
  const links = new OwnedSecrets<{ userId: string }>();
  for (const [token, userId] of confirmations) links.add(token, { userId });
  return {
    ...state,
    refreshTokens: new RefreshTokens([
      ...refreshTokenDigests,
      ...refreshTokens.map(([token, session]): [string, RefreshToken] => [tokenDigest(token), session]),
    ]),
    confirmations: links,
  };
}

const emptyState = (): UsersState => ({
  users: new Map(),
  byUsername: new Map(),
  order: new RegistrationOrder(),
  refreshTokens: new RefreshTokens(),
  confirmations: new OwnedSecrets(),
});

export const usersState: StateSlice<UsersState> = {
  key: 'users',
  init: emptyState,
  toJSON,
  count: (s) => ({ users: s.users.size, sessions: s.refreshTokens.size, confirmations: s.confirmations.size }),
  *links(s) {
    for (const [token] of s.confirmations) yield token;
  },
  fromJSON,
  // Records are changed in place (profile updates, activation): copied one by one, which costs far less than a
  // structured clone of the JSON form; the indexes are built again from them.
  copy(s) {
    const { users, refreshTokenDigests = [], confirmations } = toJSON(s);
    return fromJSON({
      users: users.map((user) => ({ ...user, extra: { ...user.extra } })),
      refreshTokenDigests: refreshTokenDigests.map(([digest, session]) => [digest, { ...session }]),
      confirmations,
    });
  },
};

/** The fields the searches read: the service's reads all but the phone number, the admin API's all of them. */
const SEARCHED = ['username', 'firstName', 'lastName', 'email', 'phoneNumber'] as const;

/**
 * What the search index keeps of a user: each searched field lower-cased (the service's search) and folded (the admin
 * API's). A field missing from a state imported by hand is kept as empty, so that the import still takes.
 */
export function searchTexts(user: StoredUser): string[] {
  return SEARCHED.flatMap((key) => {
    const value = user[key] ?? '';
    return [value.toLowerCase(), foldText(value)];
  });
}

/** Keeps a new user in every index of the state. */
export function addUser(state: UsersState, user: StoredUser): void {
  state.users.set(user.userId, user);
  state.byUsername.set(user.username, user.userId);
  state.order.add(user);
  state.search?.add(user, searchTexts(user));
}

/** Removes a user from every index of the state. */
export function removeUser(state: UsersState, user: StoredUser): void {
  state.users.delete(user.userId);
  state.byUsername.delete(user.username);
  state.order.remove(user);
  state.search?.remove(user, searchTexts(user));
}

/**
 * Changes a user's fields in place and in the indexes that read them: the username's (`byUsername`, whose new name
 * the caller has checked is free) and the search's.
 */
export function changeUser(state: UsersState, user: StoredUser, fields: Partial<StoredUser>): void {
  state.search?.remove(user, searchTexts(user));
  if (fields.username !== undefined && fields.username !== user.username) {
    state.byUsername.delete(user.username);
    state.byUsername.set(fields.username, user.userId);
  }
  Object.assign(user, fields);
  state.search?.add(user, searchTexts(user));
}
