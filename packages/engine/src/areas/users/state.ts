import type { StateSlice } from '../../shared/project.js';
import { RankedSet } from '../../shared/util/ranked-set.js';
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
  readonly #set = new RankedSet<StoredUser>((a, b) => this.#seq.get(a)! - this.#seq.get(b)!);

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
  const order = new RegistrationOrder();
  for (const user of users) order.add(user);
  return {
    users: new Map(users.map((u) => [u.userId, u])),
    byUsername: new Map(users.map((u) => [u.username, u.userId])),
    order,
    refreshTokens: new RefreshTokens([
      ...refreshTokenDigests,
      ...refreshTokens.map(([token, session]): [string, RefreshToken] => [tokenDigest(token), session]),
    ]),
    confirmations: confirmationsOf(confirmations),
  };
}

export const usersState: StateSlice<UsersState> = {
  key: 'users',
  init: () => ({
    users: new Map(),
    byUsername: new Map(),
    order: new RegistrationOrder(),
    refreshTokens: new RefreshTokens(),
    confirmations: new OwnedSecrets(),
  }),
  toJSON,
  count: (s) => ({ users: s.users.size, sessions: s.refreshTokens.size, confirmations: s.confirmations.size }),
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

function confirmationsOf(entries: [string, string][]): OwnedSecrets<{ userId: string }> {
  const confirmations = new OwnedSecrets<{ userId: string }>();
  for (const [token, userId] of entries) confirmations.add(token, { userId });
  return confirmations;
}

/** Keeps a new user in every index of the state. */
export function addUser(state: UsersState, user: StoredUser): void {
  state.users.set(user.userId, user);
  state.byUsername.set(user.username, user.userId);
  state.order.add(user);
}

/** Removes a user from every index of the state. */
export function removeUser(state: UsersState, user: StoredUser): void {
  state.users.delete(user.userId);
  state.byUsername.delete(user.username);
  state.order.remove(user);
}
