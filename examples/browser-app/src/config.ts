/** The project's keys: those of the reference server's built-in development config. */
export const KEYS = {
  authenticationId: 'dev-auth-id',
  clientKey: 'dev-client-key',
  objectStorageId: 'dev-db',
  storageId: 'dev-storage',
  gameId: 'dev-game',
};

/** The base URL the mocked backend answers on (a reserved `.test` name: nothing real is ever reached). */
export const MOCK_URL = 'https://api.basekit.test';
