// How a grid's columns are laid out by the person using it: their order, the hidden ones and their widths, kept in
// localStorage under a key per grid (a table of a project), so a table opens as it was left.
import { useState } from 'preact/hooks';

export interface GridLayout {
  /** Columns in the order chosen; columns not named here follow, in their own order. */
  order: string[];
  hidden: string[];
  /** Widths in CSS pixels of the columns resized. */
  widths: Record<string, number>;
}

export const EMPTY_LAYOUT: GridLayout = { order: [], hidden: [], widths: {} };

const PREFIX = 'basekit-panel:grid:';

/** A value kept in localStorage as JSON (a private window or a full storage keeps it for the page only). */
export function readStored<T>(key: string): T | undefined {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // Storage full or refused: the layout lasts as long as the page.
  }
}

/** The layout of the grid `key` (read when the component mounts: key the component by it) and its setter, which keeps it. */
export function useGridLayout(key: string): [GridLayout, (layout: GridLayout) => void] {
  const [layout, setLayout] = useState(() => ({ ...EMPTY_LAYOUT, ...readStored<GridLayout>(`${key}:layout`) }));
  const change = (next: GridLayout) => {
    writeStored(`${key}:layout`, next);
    setLayout(next);
  };
  return [layout, change];
}

/** Every column in the layout's order: those it orders first, then the others as given. */
export function arranged(columns: string[], layout: GridLayout): string[] {
  const first = layout.order.filter((column) => columns.includes(column));
  return [...first, ...columns.filter((column) => !first.includes(column))];
}

/** The layout with `column` moved by `offset` places among `columns` (all of them, hidden ones too). */
export function moved(layout: GridLayout, columns: string[], column: string, offset: number): GridLayout {
  const order = arranged(columns, layout);
  const from = order.indexOf(column);
  const to = Math.max(0, Math.min(order.length - 1, from + offset));
  order.splice(to, 0, ...order.splice(from, 1));
  return { ...layout, order };
}

/** The layout with `column` moved just before `target`. */
export function movedBefore(layout: GridLayout, columns: string[], column: string, target: string): GridLayout {
  const order = arranged(columns, layout).filter((c) => c !== column);
  order.splice(order.indexOf(target), 0, column);
  return { ...layout, order };
}

export const toggled = (layout: GridLayout, column: string, shown: boolean): GridLayout => ({
  ...layout,
  hidden: shown ? layout.hidden.filter((c) => c !== column) : [...layout.hidden.filter((c) => c !== column), column],
});
