import { OwnedSecrets } from './owned-secrets.js';

export interface RefreshToken {
  userId: string;
  /** Epoch milliseconds of the server clock. */
  expiresAt: number;
}

/** A token's place in the expiry order. */
interface Due {
  token: string;
  entry: RefreshToken;
}

/**
 * The refresh tokens of a project: by token and by user as `OwnedSecrets`, and by expiry in a binary heap (earliest
 * first), so that dropping the expired ones costs O(log n) each, never a sweep of every token kept.
 *
 * @example
 * const tokens = new RefreshTokens();
 * tokens.add(token, { userId, expiresAt });
 * tokens.dropExpired(clock.now());
 * tokens.get(token); // the entry, or undefined
 */
export class RefreshTokens extends OwnedSecrets<RefreshToken> {
  /** A min-heap by `expiresAt`. Tokens removed before they expire stay in it until popped or a rebuild. */
  #heap: Due[] = [];

  constructor(entries: Iterable<readonly [string, RefreshToken]> = []) {
    super();
    for (const [token, entry] of entries) this.add(token, entry);
  }

  override add(token: string, entry: RefreshToken): void {
    super.add(token, entry);
    this.#push({ token, entry });
  }

  override delete(token: string): RefreshToken | undefined {
    const entry = super.delete(token);
    // Rebuilt without the removed tokens once they outnumber the kept ones: the heap stays within twice the tokens.
    if (entry && this.#heap.length > 2 * this.size + 1024) this.#rebuild();
    return entry;
  }

  /** Removes the tokens that expired at `now` or before, earliest first. */
  dropExpired(now: number): void {
    while (this.#heap.length > 0 && this.#heap[0]!.entry.expiresAt <= now) {
      const { token, entry } = this.#pop();
      // Only if the token is still this entry's: it may have been removed, or added again, since.
      if (this.get(token) === entry) this.delete(token);
    }
  }

  #rebuild(): void {
    this.#heap = [];
    for (const [token, entry] of this) this.#push({ token, entry });
  }

  #push(due: Due): void {
    const heap = this.#heap;
    const at = due.entry.expiresAt;
    let i = heap.push(due) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]!.entry.expiresAt <= at) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = due;
  }

  #pop(): Due {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    const at = last.entry.expiresAt;
    let i = 0;
    for (let child = 1; child < heap.length; child = 2 * i + 1) {
      if (child + 1 < heap.length && heap[child + 1]!.entry.expiresAt < heap[child]!.entry.expiresAt) child++;
      if (heap[child]!.entry.expiresAt >= at) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  }
}
