import type { StateSlice } from '../../shared/project.js';
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
  /** The digest of each refresh token (`tokenDigest`) -> its session: the tokens themselves are never kept. */
  refreshTokens: Map<string, RefreshToken>;
  /** confirmation token of an e-mail link -> userId */
  confirmations: Map<string, string>;
}

interface UsersJson {
  users: StoredUser[];
  /** By their digests. */
  refreshTokenDigests?: [string, RefreshToken][];
  /** The tokens themselves, as exports before state format 2 kept them: digested on import. */
  refreshTokens?: [string, RefreshToken][];
  confirmations?: [string, string][];
}

export const usersState: StateSlice<UsersState> = {
  key: 'users',
  init: () => ({ users: new Map(), byUsername: new Map(), refreshTokens: new Map(), confirmations: new Map() }),
  toJSON: (s): UsersJson => ({
    users: [...s.users.values()],
    refreshTokenDigests: [...s.refreshTokens],
    confirmations: [...s.confirmations],
  }),
  count: (s) => ({ users: s.users.size, sessions: s.refreshTokens.size, confirmations: s.confirmations.size }),
  fromJSON: (json) => {
    const { users, refreshTokenDigests = [], refreshTokens = [], confirmations = [] } = json as UsersJson;
    return {
      users: new Map(users.map((u) => [u.userId, u])),
      byUsername: new Map(users.map((u) => [u.username, u.userId])),
      refreshTokens: new Map([
        ...refreshTokenDigests,
        ...refreshTokens.map(([token, session]): [string, RefreshToken] => [tokenDigest(token), session]),
      ]),
      confirmations: new Map(confirmations),
    };
  },
};
