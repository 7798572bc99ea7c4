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
 * newer load started is dropped, so quick filter changes never show stale rows. It is `loading` from the very render
 * in which `deps` change (the effect that starts the load runs only after that render), so a page never shows the
 * last rows as the answer to a new query.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [version, setVersion] = useState(0);
  const current = [...deps, version];
  const [state, setState] = useState<{ data: T | undefined; error: unknown; for?: unknown[] }>({
    data: undefined,
    error: undefined,
  });
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let stale = false;
    load().then(
      (data) => !stale && setState({ data, error: undefined, for: current }),
      (error: unknown) => !stale && setState((s) => ({ data: s.data, error, for: current })),
    );
    return () => {
      stale = true;
    };
  }, current);
  // Loading until the answer in hand is the answer to these inputs.
  const answered =
    state.for !== undefined &&
    state.for.length === current.length &&
    state.for.every((value, i) => Object.is(value, current[i]));
  return { data: state.data, error: state.error, loading: !answered, reload };
}
