import { ServiceError, SessionExpiredError } from './errors.js';
import type { Session, TokenStore } from './token-store.js';

/**
 * The token response of login and renewal (the contract's `TokenResponse`).
 *
 * @example
 * const tokens: TokenResponse = await (await fetch(`${baseUrl}/auth/login`, init)).json();
 * await client.core.session.signIn(tokens);
 */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  refresh_token?: string;
  expires_in: number;
  scope: 'client' | 'master';
  jti: string;
}

/**
 * What happened to the session: a login, a renewal, a logout, or a renewal the service refused.
 *
 * @example
 * client.auth.onSessionChange((change: SessionChange) => console.log('session', change));
 */
export type SessionChange = 'signedIn' | 'refreshed' | 'signedOut' | 'expired';
/**
 * Hears each session change with the session after it (undefined once signed out or expired).
 *
 * @example
 * const listener: SessionListener = (change, session) => { if (change === 'expired') showLogin() };
 * client.auth.onSessionChange(listener);
 */
export type SessionListener = (change: SessionChange, session: Session | undefined) => void;

/** Renew the access token this long before it expires, so a request never leaves with a token about to lapse. */
const RENEW_AHEAD_MS = 30_000;

/**
 * The signed-in session: kept in a `TokenStore`, renewed before it expires and once after a 401, with one
 * renewal shared by every concurrent request (single flight). Every core has one: `client.core.session`.
 *
 * @example
 * const session = await client.core.session.fresh(); // renewed first when about to expire
 */
export class SessionManager {
  readonly #listeners = new Set<SessionListener>();
  #renewal: Promise<Session> | undefined;
  /** Why the session ended, for requests that were still in flight with its last token. */
  #expiry: SessionExpiredError | undefined;

  constructor(
    private readonly store: TokenStore,
    private readonly renew: (refreshToken: string) => Promise<TokenResponse>,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored session, or undefined when signed out. */
  current(): Promise<Session | undefined> {
    return Promise.resolve(this.store.get());
  }

  /** Stores a login's tokens and tells the listeners. */
  async signIn(tokens: TokenResponse): Promise<Session> {
    const session = this.#fromTokens(tokens);
    this.#expiry = undefined;
    await this.store.set(session);
    this.#emit('signedIn', session);
    return session;
  }

  /** Forgets the session (on the client only) and tells the listeners. */
  async signOut(change: 'signedOut' | 'expired' = 'signedOut'): Promise<void> {
    this.#expiry = undefined;
    await this.store.clear();
    this.#emit(change, undefined);
  }

  /**
   * Listens to session changes; returns the function that stops listening.
   *
   * @example
   * const stop = client.session.onChange((change) => { if (change === 'expired') showLogin() });
   */
  onChange(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The session to send now, renewed first when its access token is about to expire; undefined when signed out. */
  async fresh(): Promise<Session | undefined> {
    const session = await this.current();
    if (session?.refreshToken && session.expiresAt - RENEW_AHEAD_MS <= this.now()) return this.refresh();
    return session;
  }

  /**
   * The session to replay a request with after the service refused `staleAccessToken` (a 401): renewed once for
   * every request that was sent with that token. Undefined when there is nothing to replay with (signed out, or a
   * session that cannot be renewed); the renewal's `SessionExpiredError` when the session expired meanwhile.
   */
  async renewedAfter(staleAccessToken: string): Promise<Session | undefined> {
    const session = await this.current();
    if (!session) {
      if (this.#expiry) throw this.#expiry;
      return undefined;
    }
    if (session.accessToken !== staleAccessToken) return session;
    return session.refreshToken ? this.refresh() : undefined;
  }

  /** Renews the access token now; concurrent callers share one renewal. Throws `SessionExpiredError` when it fails. */
  refresh(): Promise<Session> {
    this.#renewal ??= this.#renew().finally(() => (this.#renewal = undefined));
    return this.#renewal;
  }

  async #renew(): Promise<Session> {
    const refreshToken = (await this.current())?.refreshToken;
    if (!refreshToken) throw new SessionExpiredError('the session has no refresh token: log in again');
    let tokens: TokenResponse;
    try {
      tokens = await this.renew(refreshToken);
    } catch (error) {
      // A refused renewal ends the session; a network failure or a failing service (5xx) does not: the refresh token
      // may still be good, and the next call tries again.
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      const expiry = new SessionExpiredError(`the session could not be renewed: ${error.message}`, { cause: error });
      await this.signOut('expired');
      this.#expiry = expiry;
      throw expiry;
    }
    const session = this.#fromTokens({ ...tokens, refresh_token: tokens.refresh_token ?? refreshToken });
    await this.store.set(session);
    this.#emit('refreshed', session);
    return session;
  }

  #fromTokens(tokens: TokenResponse): Session {
    const session: Session = {
      accessToken: tokens.access_token,
      tokenType: tokens.token_type === 'bearer' ? 'Bearer' : tokens.token_type,
      scope: tokens.scope,
      expiresAt: this.now() + tokens.expires_in * 1000,
    };
    if (tokens.refresh_token) session.refreshToken = tokens.refresh_token;
    return session;
  }

  /** `Authorization` for a session: `<token_type> <access_token>`. */
  static authorization(session: Session): string {
    return `${session.tokenType} ${session.accessToken}`;
  }

  #emit(change: SessionChange, session: Session | undefined): void {
    for (const listener of this.#listeners) listener(change, session);
  }
}
