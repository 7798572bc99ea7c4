import type { StateSlice } from '../../shared/project.js';
import { OwnedSecrets } from './owned-secrets.js';
import { type RefreshToken, RefreshTokens } from './refresh-tokens.js';

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

export type { RefreshToken };

export interface UsersState {
  /** userId -> user, in registration order (the order of listings and searches). */
  users: Map<string, StoredUser>;
  /** username -> userId */
  byUsername: Map<string, string>;
  refreshTokens: RefreshTokens;
  /** The confirmation token of each e-mail link, and its user. */
  confirmations: OwnedSecrets<{ userId: string }>;
}

interface UsersJson {
  users: StoredUser[];
  refreshTokens: [string, RefreshToken][];
  confirmations?: [string, string][];
}

export const usersState: StateSlice<UsersState> = {
  key: 'users',
  init: () => ({
    users: new Map(),
    byUsername: new Map(),
    refreshTokens: new RefreshTokens(),
    confirmations: new OwnedSecrets(),
  }),
  toJSON: (s): UsersJson => ({
    users: [...s.users.values()],
    refreshTokens: [...s.refreshTokens],
    confirmations: Array.from(s.confirmations, ([token, { userId }]) => [token, userId]),
  }),
  fromJSON: (json) => {
    const { users, refreshTokens, confirmations = [] } = json as UsersJson;
    return {
      users: new Map(users.map((u) => [u.userId, u])),
      byUsername: new Map(users.map((u) => [u.username, u.userId])),
      refreshTokens: new RefreshTokens(refreshTokens),
      confirmations: confirmationsOf(confirmations),
    };
  },
};

function confirmationsOf(entries: [string, string][]): OwnedSecrets<{ userId: string }> {
  const confirmations = new OwnedSecrets<{ userId: string }>();
  for (const [token, userId] of entries) confirmations.add(token, { userId });
  return confirmations;
}
