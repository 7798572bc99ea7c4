import { useCallback, useEffect, useState } from 'preact/hooks';

/** What `useLoad` holds: the last data loaded, the last error, whether a load is under way. */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Loads again (after a change made on the page). */
  reload: () => void;
}

/**
 * Runs `load` now and whenever `deps` change (like `useEffect`), keeping its result; an answer that arrives after a
 * newer load started is dropped, so quick filter changes never show stale rows.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<Omit<Loaded<T>, 'reload'>>({ data: undefined, error: undefined, loading: true });
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let stale = false;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => !stale && setState({ data, error: undefined, loading: false }),
      (error: unknown) => !stale && setState((s) => ({ data: s.data, error, loading: false })),
    );
    return () => {
      stale = true;
    };
  }, [...deps, version]);
  return { ...state, reload };
}
