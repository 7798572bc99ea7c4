/** The IndexedDB database a backend for `baseUrl` keeps its state in (`persist: 'indexeddb'`). */
export function persistedDatabaseName(baseUrl: string): string {
  return `basekit:${new URL(baseUrl, globalThis.location?.href).href}`;
}

/**
 * Deletes what `persist: 'indexeddb'` kept for `baseUrl` in this origin (from a test, or a "start over" button).
 * Backends using it must be closed first (`backend.close()`), or the deletion waits for them.
 *
 * @example
 * await backend.close();
 * await clearPersistedState('https://api.example.test');
 */
export function clearPersistedState(baseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(persistedDatabaseName(baseUrl));
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('IndexedDB deletion failed'));
  });
}
