/**
 * A module loaded with its first use, then at hand: the loading promise is kept. An `import()` of a module loaded
 * already still asks the module loader each time: in plain Node about 1.5 µs, under a loader with hooks much more
 * (tsx, with which the benches run the sources: a message to the loader's thread and back, about 0.25 ms).
 * Loading a module of the engine's own fails only with a broken install, so a failed load is not tried again.
 *
 * @example
 * const calls = loadOnce(() => import('./admin-calls.js'));
 * route.get('/tables', async (c) => (await calls()).listTables(c));
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
