import type { StateSlice } from '../../shared/project.js';

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

export interface RefreshToken {
  userId: string;
  /** Epoch milliseconds of the server clock. */
  expiresAt: number;
}

export interface UsersState {
  /** userId -> user, in registration order (the order of listings and searches). */
  users: Map<string, StoredUser>;
  /** username -> userId */
  byUsername: Map<string, string>;
  refreshTokens: Map<string, RefreshToken>;
  /** confirmation token of an e-mail link -> userId */
  confirmations: Map<string, string>;
}

interface UsersJson {
  users: StoredUser[];
  refreshTokens: [string, RefreshToken][];
  confirmations?: [string, string][];
}

export const usersState: StateSlice<UsersState> = {
  key: 'users',
  init: () => ({ users: new Map(), byUsername: new Map(), refreshTokens: new Map(), confirmations: new Map() }),
  toJSON: (s): UsersJson => ({
    users: [...s.users.values()],
    refreshTokens: [...s.refreshTokens],
    confirmations: [...s.confirmations],
  }),
  // Records are changed in place (profile updates, activation): copied one by one, which costs far less than JSON.
  copy: (s) => ({
    users: new Map(Array.from(s.users, ([userId, user]) => [userId, { ...user, extra: { ...user.extra } }])),
    byUsername: new Map(s.byUsername),
    refreshTokens: new Map(Array.from(s.refreshTokens, ([token, record]) => [token, { ...record }])),
    confirmations: new Map(s.confirmations),
  }),
  fromJSON: (json) => {
    const { users, refreshTokens, confirmations = [] } = json as UsersJson;
    return {
      users: new Map(users.map((u) => [u.userId, u])),
      byUsername: new Map(users.map((u) => [u.username, u.userId])),
      refreshTokens: new Map(refreshTokens),
      confirmations: new Map(confirmations),
    };
  },
};
