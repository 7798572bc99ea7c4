import { jsonBytes } from '../../../shared/http/body.js';
import type { Row } from '../state.js';

const sizes = new WeakMap<Row, number>();

/** A stored row's size as JSON, in bytes: measured once, remembered (a write stores a new row, never changes one in place). */
export function rowBytes(row: Row): number {
  let size = sizes.get(row);
  if (size === undefined) {
    size = jsonBytes(row);
    sizes.set(row, size);
  }
  return size;
}

/** Records the size a write measured (see `rows.ts`), so that queries need not measure the row again. */
export function rememberRowBytes(row: Row, size: number): void {
  sizes.set(row, size);
}
