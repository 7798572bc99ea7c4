/**
 * An order-statistic set: items kept sorted by a comparator, with the position of any item and the items at any
 * positions in O(log n) (plus the number of items read). A counted B+ tree: items sit in leaves of up to
 * CAPACITY items, and each branch knows how many items each of its children holds, which turns positions into a
 * walk from the root. Wide nodes keep the tree 4 levels deep at a million items and the walk within few cache
 * lines, which matters more than the number of comparisons at that size.
 */

const CAPACITY = 64;
/** A node with fewer entries than this is merged with a neighbour when the two fit in one node. */
const MIN_FILL = CAPACITY / 4;

interface Leaf<T> {
  items: T[];
}

interface Branch<T> {
  children: Node<T>[];
  /** sizes[i]: the number of items under children[i]. */
  sizes: number[];
  /** bounds[i]: an item no greater than any item under children[i + 1], and greater than every item before it. */
  bounds: T[];
}

type Node<T> = Leaf<T> | Branch<T>;

const isLeaf = <T>(node: Node<T>): node is Leaf<T> => (node as Leaf<T>).items !== undefined;
const entries = <T>(node: Node<T>) => (isLeaf(node) ? node.items.length : node.children.length);
const sizeOf = <T>(node: Node<T>): number => (isLeaf(node) ? node.items.length : node.sizes.reduce((a, b) => a + b, 0));

/**
 * A sorted set with positions. Items must be distinct under `compare` (a total order) and must not change while
 * held: an item equal to one already held is refused, and `remove`/`rankOf` find items by `compare`.
 *
 * @example
 * const set = new RankedSet<number>((a, b) => b - a); // highest first
 * [5, 9, 7].forEach((n) => set.insert(n));
 * set.rankOf(7); // 1 (positions count from 0)
 * set.slice(0, 2); // [9, 7]
 */
export class RankedSet<T> {
  #root: Node<T> = { items: [] };
  #size = 0;

  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.#size;
  }

  /** Adds `item`; false (and nothing changes) when an equal item is already held. */
  insert(item: T): boolean {
    if (!this.#insert(this.#root, item)) return false;
    this.#size++;
    if (entries(this.#root) > CAPACITY) {
      const root: Branch<T> = { children: [this.#root], sizes: [this.#size], bounds: [] };
      this.#splitChild(root, 0);
      this.#root = root;
    }
    return true;
  }

  /** Removes the item equal to `item`; false when there is none. */
  remove(item: T): boolean {
    if (!this.#remove(this.#root, item)) return false;
    const root = this.#root;
    if (!isLeaf(root) && root.children.length === 1) this.#root = root.children[0]!;
    this.#size--;
    return true;
  }

  /** The position (from 0) of the item equal to `item`, or -1 when there is none. */
  rankOf(item: T): number {
    let node = this.#root;
    let before = 0;
    while (!isLeaf(node)) {
      const child = this.#childFor(node, item);
      for (let i = 0; i < child; i++) before += node.sizes[i]!;
      node = node.children[child]!;
    }
    // The held item itself is found by a scan of the leaf's references, which reads no item; an equal one by order.
    const held = node.items.indexOf(item);
    if (held >= 0) return before + held;
    const index = this.#lowerBound(node.items, item);
    return index < node.items.length && this.compare(node.items[index]!, item) === 0 ? before + index : -1;
  }

  /** The item at `position` (from 0), or undefined outside `0..size-1`. */
  at(position: number): T | undefined {
    return this.slice(position, position + 1)[0];
  }

  /** The items at positions `start` to `end - 1`, clamped to `0..size` (no negative indexing from the end). */
  slice(start: number, end: number = this.#size): T[] {
    const items: T[] = [];
    const from = Math.max(start, 0);
    const count = Math.min(end, this.#size) - from;
    if (count > 0) this.#collect(this.#root, from, count, items);
    return items;
  }

  /** Every item, in order. */
  values(): T[] {
    return this.slice(0);
  }

  /** Appends to `out` the items of `node` from position `skip` on, until `out` holds `wanted` more than it did. */
  #collect(node: Node<T>, skip: number, wanted: number, out: T[]): number {
    if (isLeaf(node)) {
      const taken = node.items.slice(skip, skip + wanted);
      out.push(...taken);
      return taken.length;
    }
    let taken = 0;
    for (let i = 0; i < node.children.length && taken < wanted; i++) {
      const size = node.sizes[i]!;
      if (skip >= size) {
        skip -= size;
        continue;
      }
      taken += this.#collect(node.children[i]!, skip, wanted - taken, out);
      skip = 0;
    }
    return taken;
  }

  /** The index of the child of `branch` whose items `item` falls among: the number of bounds not above it. */
  #childFor(branch: Branch<T>, item: T): number {
    const { bounds } = branch;
    let low = 0;
    let high = bounds.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(bounds[middle]!, item) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The index of the first of the sorted `items` not below `item`. */
  #lowerBound(items: T[], item: T): number {
    let low = 0;
    let high = items.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(items[middle]!, item) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #insert(node: Node<T>, item: T): boolean {
    if (isLeaf(node)) {
      const index = this.#lowerBound(node.items, item);
      if (index < node.items.length && this.compare(node.items[index]!, item) === 0) return false;
      node.items.splice(index, 0, item);
      return true;
    }
    const child = this.#childFor(node, item);
    if (!this.#insert(node.children[child]!, item)) return false;
    node.sizes[child]!++;
    if (entries(node.children[child]!) > CAPACITY) this.#splitChild(node, child);
    return true;
  }

  /** Splits the over-full children[child] in two halves. */
  #splitChild(branch: Branch<T>, child: number): void {
    const node = branch.children[child]!;
    const half = CAPACITY / 2;
    let right: Node<T>;
    let bound: T;
    if (isLeaf(node)) {
      right = { items: node.items.splice(half) };
      bound = right.items[0]!;
    } else {
      right = {
        children: node.children.splice(half),
        sizes: node.sizes.splice(half),
        bounds: node.bounds.splice(half),
      };
      // bounds[i] precedes children[i + 1]: the bound before the right half's first child moves up.
      bound = node.bounds.pop()!;
    }
    const rightSize = sizeOf(right);
    branch.children.splice(child + 1, 0, right);
    branch.sizes.splice(child + 1, 0, rightSize);
    branch.sizes[child]! -= rightSize;
    branch.bounds.splice(child, 0, bound);
  }

  #remove(node: Node<T>, item: T): boolean {
    if (isLeaf(node)) {
      const index = this.#lowerBound(node.items, item);
      if (index === node.items.length || this.compare(node.items[index]!, item) !== 0) return false;
      node.items.splice(index, 1);
      return true;
    }
    const child = this.#childFor(node, item);
    if (!this.#remove(node.children[child]!, item)) return false;
    node.sizes[child]!--;
    if (entries(node.children[child]!) < MIN_FILL) this.#mergeAround(node, child);
    return true;
  }

  /** Merges the under-filled children[child] with a neighbour when both fit in one node. */
  #mergeAround(branch: Branch<T>, child: number): void {
    const left = child > 0 ? child - 1 : child;
    const [a, b] = [branch.children[left], branch.children[left + 1]];
    if (!a || !b || entries(a) + entries(b) > CAPACITY) return;
    if (isLeaf(a)) {
      a.items.push(...(b as Leaf<T>).items);
    } else {
      const right = b as Branch<T>;
      a.children.push(...right.children);
      a.sizes.push(...right.sizes);
      a.bounds.push(branch.bounds[left]!, ...right.bounds);
    }
    branch.children.splice(left + 1, 1);
    branch.sizes[left]! += branch.sizes.splice(left + 1, 1)[0]!;
    branch.bounds.splice(left, 1);
  }
}
