// Sorting by column headers: the keys the grid sorts by, in priority order, as the service's `order` parameter writes
// them (the `order` parameter of the contract's `queryRows`: `score,-name`), and what a click on a header makes of them.

/** One sort key: a column, ascending or descending. */
export interface SortKey {
  column: string;
  descending: boolean;
}

/** The keys of an `order` parameter (`-score,name`); empty items are left out. */
export function parseOrder(order: string): SortKey[] {
  return order
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) =>
      item.startsWith('-') ? { column: item.slice(1), descending: true } : { column: item, descending: false },
    );
}

/** The `order` parameter of sort keys. */
export const formatOrder = (keys: SortKey[]): string =>
  keys.map(({ column, descending }) => (descending ? `-${column}` : column)).join(',');

/**
 * The sort keys after a click on a column's header: ascending, then descending, then not sorted by it. A plain click
 * sorts by that column alone; with `adding` (Shift held) the column is added to the keys, or moved along that cycle
 * where it already is, the other keys kept.
 *
 * @example
 * nextSort([{ column: 'score', descending: true }], 'name', true); // score descending, then name ascending
 */
export function nextSort(keys: SortKey[], column: string, adding: boolean): SortKey[] {
  const current = keys.find((key) => key.column === column);
  const next = !current
    ? { column, descending: false }
    : !current.descending
      ? { column, descending: true }
      : undefined;
  if (!adding) return next ? [next] : [];
  if (!current) return [...keys, next!];
  return keys.flatMap((key) => (key.column !== column ? [key] : next ? [next] : []));
}
