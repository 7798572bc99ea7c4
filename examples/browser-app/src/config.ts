/** The project's keys: those of the reference server's built-in development config. */
export const KEYS = {
  authenticationId: 'dev-auth-id',
  clientKey: 'dev-client-key',
  objectStorageId: 'dev-db',
  storageId: 'dev-storage',
  gameId: 'dev-game',
};

/**
 * The project's keys for this page: `KEYS`, each replaced by the page address's parameter of the same name when there
 * is one (`?server=<url>&authenticationId=…&clientKey=…`), so a test can point the page at a project of its own.
 */
export function keysFrom(params: URLSearchParams): typeof KEYS {
  const given = Object.keys(KEYS).flatMap((name) => (params.has(name) ? [[name, params.get(name)!]] : []));
  return { ...KEYS, ...Object.fromEntries(given) };
}

/** The base URL the mocked backend answers on (a reserved `.test` name: nothing real is ever reached). */
export const MOCK_URL = 'https://api.basekit.test';
