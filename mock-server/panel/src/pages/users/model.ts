import { admin, jsonBody, service } from '../../api.js';

/** A user record as the users service answers it (spec 2.1): the record's fields and any extra registration fields. */
export type UserRecord = Record<string, string | boolean> & {
  userId: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  guest: boolean;
  active: boolean;
};

/** One e-mail of the outbox (`GET /__admin/outbox`). */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  link: string;
}

/** The profile fields a user record can change (spec 4.1 #10), in form order with their labels. */
export const PROFILE_FIELDS = [
  ['username', 'Username'],
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['email', 'E-mail'],
  ['phoneNumber', 'Phone number'],
] as const;

export type Profile = Record<(typeof PROFILE_FIELDS)[number][0], string>;

export const PAGE_SIZE = 20;

/** A page of users (`GET /auth/users`), or of those matching `word` (`GET /auth/users/search`). */
export function listUsers(word: string, page: number): Promise<{ userCount: number; users: UserRecord[] }> {
  const query = new URLSearchParams({ page: String(page), pageSize: String(PAGE_SIZE) });
  if (word) query.set('word', word);
  return service(`/auth/users${word ? '/search' : ''}?${query}`);
}

export const getUser = (userId: string) => service<UserRecord>(`/auth/users/${encodeURIComponent(userId)}`);

/** Registers a user as the app would (`POST /auth/users`): with e-mail confirmation on, an e-mail goes to the outbox. */
export const createUser = (fields: Profile & { password: string }) =>
  service<UserRecord>(
    '/auth/users',
    jsonBody('POST', Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''))),
  );

export const updateUser = (userId: string, profile: Profile) =>
  service<UserRecord>(`/auth/users/${encodeURIComponent(userId)}`, jsonBody('PUT', profile));

export const deleteUser = (userId: string) =>
  service<unknown>(`/auth/users/${encodeURIComponent(userId)}`, { method: 'DELETE' });

export const activateUser = (userId: string) =>
  admin<UserRecord>(`/__admin/users/${encodeURIComponent(userId)}/activate`, { method: 'POST' });

export const signOutUser = (userId: string) =>
  admin<{ expiredRefreshTokens: number }>(`/__admin/users/${encodeURIComponent(userId)}/sign-out`, { method: 'POST' });

export const outbox = () => admin<{ messages: Mail[] }>('/__admin/outbox').then(({ messages }) => messages);
