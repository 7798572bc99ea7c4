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
  expiresAt: number;
}

export interface UsersState {
  users: Map<string, StoredUser>;
  /** username -> userId */
  byUsername: Map<string, string>;
  refreshTokens: Map<string, RefreshToken>;
}

interface UsersJson {
  users: StoredUser[];
  refreshTokens: [string, RefreshToken][];
}

export const usersState: StateSlice<UsersState> = {
  key: 'users',
  init: () => ({ users: new Map(), byUsername: new Map(), refreshTokens: new Map() }),
  toJSON: (s): UsersJson => ({ users: [...s.users.values()], refreshTokens: [...s.refreshTokens] }),
  fromJSON: (json) => {
    const { users, refreshTokens } = json as UsersJson;
    return {
      users: new Map(users.map((u) => [u.userId, u])),
      byUsername: new Map(users.map((u) => [u.username, u.userId])),
      refreshTokens: new Map(refreshTokens),
    };
  },
};
