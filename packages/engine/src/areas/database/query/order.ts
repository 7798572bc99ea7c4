import { isPlainObject } from '../../../shared/http/body.js';
import type { Row } from '../state.js';
import { columnReader, valueAt } from '../values/values.js';

export interface SortKey {
  path: string;
  descending: boolean;
}

// Mixed types sort by kind first, like MongoDB: missing and null, numbers, strings, objects, arrays, booleans, dates.
function rank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  if (typeof value === 'boolean') return 5;
  if (Array.isArray(value)) return 4;
  if (isPlainObject(value) && value['__type'] === 'Date') return 6;
  return 3;
}

/** Dates sort by their ISO strings, pointers by id, other objects and arrays by their JSON text. */
function sortable(value: unknown, kind: number): unknown {
  if (kind === 6) return (value as { iso: string }).iso;
  if (kind === 3) return (value as { _id?: unknown })._id ?? JSON.stringify(value);
  if (kind === 4) return JSON.stringify(value);
  return value;
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  // The common case first: two numbers (or two strings) of a typed column.
  if (typeof a === typeof b && (typeof a === 'number' || typeof a === 'string'))
    return (a as number) < (b as number) ? -1 : 1;
  const [ka, kb] = [rank(a), rank(b)];
  if (ka !== kb) return ka - kb;
  const [sa, sb] = [sortable(a, ka), sortable(b, kb)] as [number, number];
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** A comparator of rows for `order` (`score,-name`); ties keep creation order, since callers sort stably. */
export function rowComparator(keys: SortKey[]): (a: Row, b: Row) => number {
  const getters = keys.map(({ path, descending }) => ({
    get: path.includes('.') ? (row: Row) => valueAt(row, path) : columnReader(path),
    sign: descending ? -1 : 1,
  }));
  return (a, b) => {
    for (const { get, sign } of getters) {
      const result = compareValues(get(a), get(b));
      if (result !== 0) return sign * result;
    }
    return 0;
  };
}

interface Entry {
  row: Row;
  seq: number;
}

/**
 * The `k` first rows under a comparator, kept in a bounded max-heap: O(n log k) instead of sorting every match,
 * which is what makes `order` + a small `limit` fast on large tables. Ties keep the order rows were offered in.
 */
export class TopK {
  readonly #heap: Entry[] = [];
  #seq = 0;

  constructor(
    private readonly k: number,
    private readonly compare: (a: Row, b: Row) => number,
  ) {}

  #cmp(a: Entry, b: Entry): number {
    return this.compare(a.row, b.row) || a.seq - b.seq;
  }

  offer(row: Row): void {
    const heap = this.#heap;
    const seq = this.#seq++;
    if (heap.length < this.k) {
      heap.push({ row, seq });
      this.#siftUp(heap.length - 1);
    } else if (this.k > 0 && this.compare(row, heap[0]!.row) < 0) {
      // Only a row strictly before the worst kept one gets in: on a tie, the earlier row stays.
      heap[0] = { row, seq };
      this.#siftDown(0);
    }
  }

  /** The kept rows, first to last. */
  sorted(): Row[] {
    return [...this.#heap].sort((a, b) => this.#cmp(a, b)).map((e) => e.row);
  }

  #siftUp(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#cmp(heap[i]!, heap[parent]!) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const heap = this.#heap;
    for (;;) {
      let largest = i;
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child < heap.length && this.#cmp(heap[child]!, heap[largest]!) > 0) largest = child;
      }
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest]!, heap[i]!];
      i = largest;
    }
  }
}
