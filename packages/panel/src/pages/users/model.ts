import type { UserFilter } from '@basekit/sdk/admin';
import { admin, dataOf, service } from '../../api.js';

export type { Mail, UserFilter } from '@basekit/sdk/admin';

/** The profile fields a user record can change (the contract's `UserUpdate`), in form order with their labels. */
export const PROFILE_FIELDS = [
  ['username', 'Username'],
  ['firstName', 'First name'],
  ['lastName', 'Last name'],
  ['email', 'E-mail'],
  ['phoneNumber', 'Phone number'],
] as const;

export type Profile = Record<(typeof PROFILE_FIELDS)[number][0], string>;

export const PAGE_SIZE = 20;

/**
 * A page of the users a filter keeps (`GET /__admin/users`): a text found in the names, e-mail or phone number
 * whatever its case and accents, or a user id; active or not, guests or not.
 */
export const findUsers = (filter: UserFilter, page: number) =>
  admin().users.find({ ...filter, page, pageSize: PAGE_SIZE });

const user = (userId: string) => ({ params: { path: { userId } } });

export const getUser = (userId: string) => dataOf(service().GET('/auth/users/{userId}', user(userId)));

/** Registers a user as the app would (`POST /auth/users`): with e-mail confirmation on, an e-mail goes to the outbox. */
export const createUser = (fields: Profile & { password: string }) =>
  dataOf(
    service().POST('/auth/users', {
      body: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== '')) as typeof fields,
    }),
  );

export const updateUser = (userId: string, profile: Profile) =>
  dataOf(service().PUT('/auth/users/{userId}', { ...user(userId), body: profile }));

export const deleteUser = (userId: string) => dataOf(service().DELETE('/auth/users/{userId}', user(userId)));

export const activateUser = (userId: string) => admin().users.activate(userId);

export const setPassword = (userId: string, password: string) => admin().users.setPassword(userId, password);

/** Expires every refresh token of the user; answers how many were still valid. */
export const signOutUser = (userId: string) => admin().users.signOut(userId);

export const outbox = () => admin().outbox();
