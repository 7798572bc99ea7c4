/**
 * A signed-in session as the SDK keeps it.
 *
 * @example
 * const session: Session | undefined = await client.auth.session();
 * if (session && session.expiresAt < Date.now()) await client.auth.refresh();
 */
export interface Session {
  accessToken: string;
  tokenType: string;
  /** Absent for master sessions, which cannot be renewed. */
  refreshToken?: string;
  scope: 'client' | 'master';
  /** Epoch milliseconds at which the access token expires. */
  expiresAt: number;
}

/**
 * Where the session is kept: memory by default, `localStorage` in browsers, or anything with these three methods.
 *
 * @example
 * const cookieStore: TokenStore = {
 *   get: () => readCookie('session'),
 *   set: (session) => writeCookie('session', session),
 *   clear: () => deleteCookie('session'),
 * };
 */
export interface TokenStore {
  /** The kept session, or undefined. */
  get(): Session | undefined | Promise<Session | undefined>;
  /** Keeps a session, replacing the one kept before. */
  set(session: Session): void | Promise<void>;
  /** Forgets the session. */
  clear(): void | Promise<void>;
}

/**
 * Keeps the session in memory: it ends with the page or process.
 *
 * @example
 * const client = createClient({ ...keys, tokenStore: memoryTokenStore() });
 */
export function memoryTokenStore(): TokenStore {
  let session: Session | undefined;
  return {
    get: () => session,
    set: (s) => void (session = s),
    clear: () => void (session = undefined),
  };
}

/**
 * What `localStorageTokenStore` uses of Web Storage: `localStorage`, `sessionStorage`, or a stand-in. Declared here
 * rather than as the DOM's `Storage`, so that Node projects type-check without the DOM library.
 *
 * @example
 * const storage: KeyValueStorage = sessionStorage; // or anything with getItem, setItem and removeItem
 * const store = localStorageTokenStore('app.session', storage);
 */
export interface KeyValueStorage {
  /** The value kept under `key`, or `null`. */
  getItem(key: string): string | null;
  /** Keeps `value` under `key`. */
  setItem(key: string, value: string): void;
  /** Forgets `key`. */
  removeItem(key: string): void;
}

/**
 * Keeps the session in `localStorage` under `key`, so it survives reloads.
 *
 * @example
 * const client = createClient({ ...keys, tokenStore: localStorageTokenStore() });
 */
export function localStorageTokenStore(
  key = 'basekit.session',
  storage: KeyValueStorage = globalThis.localStorage,
): TokenStore {
  return {
    get() {
      const raw = storage.getItem(key);
      if (!raw) return undefined;
      try {
        return JSON.parse(raw) as Session;
      } catch {
        return undefined;
      }
    },
    set: (session) => storage.setItem(key, JSON.stringify(session)),
    clear: () => storage.removeItem(key),
  };
}
