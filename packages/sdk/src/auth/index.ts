/**
 * `@basekit/sdk/auth`: the users service (registration, sessions, users), for an app that imports it alone.
 *
 * @example
 * import { createCore } from '@basekit/sdk/core';
 * import { createAuth } from '@basekit/sdk/auth';
 * const auth = createAuth(createCore({ baseUrl, authenticationId, clientKey }));
 *
 * @module @basekit/sdk/auth
 */
import type { Core } from '../core/core.js';
import { formData } from '../core/form.js';
import type { CallOptions } from '../core/options.js';
import type { SessionListener, TokenResponse } from '../core/session.js';
import type { Session } from '../core/token-store.js';
import type { components } from '../generated/schema.js';

type Schemas = components['schemas'];
/**
 * A user as the service returns it (the contract's `User`).
 *
 * @example
 * const me: User = await client.auth.me();
 * console.log(me.userId, me.username);
 */
export type User = Schemas['User'];
/**
 * The registration response: the user record with `avatar`.
 *
 * @example
 * const user: RegisteredUser = await client.auth.register({ username: 'ann', password: 's3cret' });
 */
export type RegisteredUser = Schemas['RegisteredUser'];
/**
 * A registration: username and password, the profile fields, and extra string fields.
 *
 * @example
 * const registration: Registration = { username: 'ann', password: 's3cret', firstName: 'Ann', team: 'red' };
 * await client.auth.register(registration);
 */
export type Registration = Schemas['UserRegistration'];
/**
 * The profile fields a user update may change.
 *
 * @example
 * const changes: UserChanges = { firstName: 'Annie' };
 * await client.auth.updateMe(changes);
 */
export type UserChanges = Schemas['UserUpdate'];
/**
 * A page of users with the total count (the contract's `UserList`).
 *
 * @example
 * const { users, userCount }: UserList = await admin.auth.list({ page: 0, pageSize: 20 });
 */
export type UserList = Schemas['UserList'];
/**
 * A new guest (beyond the spec): its user record, the id again as `id`, and its generated password.
 *
 * @example
 * const guest: GuestCredentials = await client.auth.registerGuest();
 * localStorage.setItem('guest', JSON.stringify({ username: guest.username, password: guest.password }));
 */
export type GuestCredentials = Schemas['GuestCredentials'];
/**
 * What completes a guest's registration (beyond the spec): its id, the last and new credentials, profile fields.
 *
 * @example
 * const completion: GuestCompletion = { userId: guest.id, lastPassword: guest.password, newUsername: 'ann', newPassword: 's3cret' };
 * await admin.auth.completeGuestRegistration(completion);
 */
export type GuestCompletion = Schemas['GuestRegistrationCompletion'];
/**
 * Paging of user search and listing; `page` counts from 0.
 *
 * @example
 * const page: Paging = { page: 2, pageSize: 50 };
 * await admin.auth.search('ann', page);
 */
export interface Paging extends CallOptions {
  page?: number;
  pageSize?: number;
}

/**
 * The users service (openapi/areas/users.yaml): registration, sessions, and user lookups and updates.
 *
 * @example
 * const auth: Auth = client.auth;
 * await auth.login('ann', 's3cret');
 */
export type Auth = ReturnType<typeof createAuth>;

/**
 * Creates the users-service client on a core: registration, login and logout, the signed-in session, and user
 * lookups. It keeps the session in the core's token store; every other area sends it as `Authorization`.
 *
 * @example
 * const auth = createAuth(createCore({ baseUrl, authenticationId, clientKey }));
 * await auth.register({ username: 'ann', password: 's3cret' });
 * await auth.login('ann', 's3cret');
 * const me = await auth.me();
 */
export function createAuth(core: Core) {
  const { baseUrl, authenticationId, clientKey } = core.options;
  const projectId = { 'X-Service-Authentication-Id': authenticationId };
  // Registration, login and logout carry no token (openapi/root.yaml's security schemes); everything else carries the session's.
  const open = core.http(baseUrl, projectId, false);
  const http = core.http(baseUrl, projectId);

  async function signIn(key: string, form: Record<string, string> | undefined, signal?: AbortSignal): Promise<Session> {
    const headers = { 'X-Service-Authentication-Key': key };
    const tokens = await core.call(
      open.POST('/auth/login', { headers, body: form as never, bodySerializer: formData as never, signal }),
    );
    return core.session.signIn(tokens as TokenResponse);
  }

  return {
    /**
     * Registers a user (the contract's `registerUser`); it does not sign in.
     *
     * @example
     * const user = await auth.register({ username: 'ann', password: 's3cret', email: 'ann@example.com' });
     */
    register: (user: Registration, { signal }: CallOptions = {}): Promise<RegisteredUser> =>
      core.call(open.POST('/auth/users', { body: user, signal })),

    /**
     * Registers a guest (beyond the spec: the service's published Node client calls it): the service chooses the
     * username and password and answers them once. Keep them (on the device) to log in again later; turn the guest
     * into a registered user with `completeGuestRegistration` (server-side code). It does not sign in.
     *
     * @example
     * const guest = await auth.registerGuest();
     * await auth.login(guest.username, guest.password);
     */
    registerGuest: ({ signal }: CallOptions = {}): Promise<GuestCredentials> =>
      core.call(open.POST('/auth/guest-users', { signal })),

    /**
     * Turns a guest into a registered user with a username, password and profile of its choice, keeping its id and
     * everything it owns (beyond the spec: the service's published Node client calls it). Master only: the app's
     * server does it, with the guest's current password as `lastPassword`.
     *
     * @example
     * const user = await admin.auth.completeGuestRegistration({ userId: guest.id, lastPassword: guest.password, newUsername: 'ann', newPassword: 's3cret', email: 'ann@example.com' });
     */
    completeGuestRegistration: (completion: GuestCompletion, { signal }: CallOptions = {}): Promise<User> =>
      core.call(http.POST('/auth/guest-users/complete-registration-master', { body: completion, signal })),

    /**
     * Logs a user in with the client key (the contract's `login`) and keeps the session.
     *
     * @example
     * const session = await auth.login('ann', 's3cret');
     */
    login: (username: string, password: string, { signal }: CallOptions = {}): Promise<Session> =>
      signIn(clientKey, { username, password }, signal),

    /**
     * Logs in as the project's administrator with the master key (the contract's `login`). Only for servers and tools:
     * never ship the master key in an app. The master session has no refresh token.
     *
     * @example
     * await auth.loginAsMaster(process.env.BASEKIT_MASTER_KEY!);
     */
    loginAsMaster: (masterKey: string, { signal }: CallOptions = {}): Promise<Session> =>
      signIn(masterKey, undefined, signal),

    /**
     * Expires the refresh token on the service (the contract's `logout`) and forgets the session, even when the service
     * cannot be reached.
     *
     * @example
     * await auth.logout();
     */
    async logout({ signal }: CallOptions = {}): Promise<void> {
      const refreshToken = (await core.session.current())?.refreshToken;
      try {
        if (refreshToken) {
          await core.call(
            open.DELETE('/auth/logout', {
              headers: { 'X-Service-Authentication-Key': clientKey },
              params: { query: { 'refresh-token': refreshToken } },
              signal,
            }),
          );
        }
      } finally {
        await core.session.signOut();
      }
    },

    /**
     * Confirms a registration with the token of its confirmation e-mail's link (for an app that opens the link
     * itself); the user can log in afterwards.
     *
     * @example
     * const user = await auth.confirmRegistration(new URL(link).pathname.split('/').pop()!);
     */
    confirmRegistration: (token: string, { signal }: CallOptions = {}): Promise<User> =>
      core.call(open.GET('/auth/confirm/{token}', { params: { path: { token } }, signal })),

    /** The signed-in session, or undefined. */
    session: (): Promise<Session | undefined> => core.session.current(),

    /**
     * Renews the access token now (it is renewed on its own before it expires and after a 401).
     * Throws `SessionExpiredError` when the service refuses.
     */
    refresh: (): Promise<Session> => core.session.refresh(),

    /**
     * Listens to session changes (`signedIn`, `refreshed`, `signedOut`, `expired`); returns the function that stops.
     *
     * @example
     * const stop = auth.onSessionChange((change) => { if (change === 'expired') showLogin() });
     */
    onSessionChange: (listener: SessionListener): (() => void) => core.session.onChange(listener),

    /** The signed-in user (the contract's `getCurrentUser`). */
    me: ({ signal }: CallOptions = {}): Promise<User> => core.call(http.GET('/auth/users/me', { signal })),

    /**
     * Changes the signed-in user's profile (the contract's `updateCurrentUser`).
     *
     * @example
     * await auth.updateMe({ firstName: 'Ann' });
     */
    updateMe: (changes: UserChanges, { signal }: CallOptions = {}): Promise<User> =>
      core.call(http.PUT('/auth/users/me', { body: changes, signal })),

    /** A user by id (the contract's `getUserById`): master, or that user's own token. */
    user: (userId: string, { signal }: CallOptions = {}): Promise<User> =>
      core.call(http.GET('/auth/users/{userId}', { params: { path: { userId } }, signal })),

    /** A user by username (the contract's `getUserByUsername`): master, or that user's own token. */
    userByUsername: (username: string, { signal }: CallOptions = {}): Promise<User> =>
      core.call(http.GET('/auth/users/by-username/{username}', { params: { path: { username } }, signal })),

    /**
     * Changes another user's profile (the contract's `updateUser`). Master only.
     *
     * @example
     * await admin.auth.updateUser(userId, { lastName: 'Smith' });
     */
    updateUser: (userId: string, changes: UserChanges, { signal }: CallOptions = {}): Promise<User> =>
      core.call(http.PUT('/auth/users/{userId}', { params: { path: { userId } }, body: changes, signal })),

    /**
     * Users whose first name, last name, username or e-mail contains `word` (the contract's `searchUsers`). Master only.
     *
     * @example
     * const { userCount, users } = await admin.auth.search('ann', { page: 0, pageSize: 20 });
     */
    search: (word: string, { signal, ...paging }: Paging = {}): Promise<UserList> =>
      core.call(http.GET('/auth/users/search', { params: { query: { word, ...paging } }, signal })),

    /** One page of all users (the contract's `listUsers`). Master only. */
    list: ({ signal, ...paging }: Paging = {}): Promise<UserList> =>
      core.call(http.GET('/auth/users', { params: { query: paging }, signal })),

    /** The users with these ids (the contract's `getUsersByIds`). Master only. */
    usersByIds: (userIds: string[], { signal }: CallOptions = {}): Promise<UserList> =>
      core.call(http.POST('/auth/users/by-user-ids', { body: { userIds }, signal })),

    /**
     * How many users the project has, guests included (beyond the spec: the service's published Node client calls
     * it). Master only.
     *
     * @example
     * const users = await admin.auth.countUsers(); // 42
     */
    countUsers: async ({ signal }: CallOptions = {}): Promise<number> =>
      (await core.call(http.GET('/auth/users/get-number-of-user', { signal }))).numberOfUser,

    /**
     * Deletes a user (beyond the spec: the service's published Node client calls it). Their tokens stop working at
     * once and their scores leave every leaderboard; the rows and files they wrote stay. Master only.
     *
     * @example
     * await admin.auth.deleteUser(userId);
     */
    async deleteUser(userId: string, { signal }: CallOptions = {}): Promise<void> {
      await core.call(http.DELETE('/auth/users/{userId}', { params: { path: { userId } }, signal }));
    },
  };
}
