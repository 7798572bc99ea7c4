import { SecretMap } from '../../shared/auth/secrets.js';

/**
 * Secrets a user holds (refresh tokens, confirmation links), found by the secret in constant time (`SecretMap`) and
 * all of one user's at once (a sign-out everywhere, a deletion), neither at a cost that grows with the secrets kept.
 *
 * @example
 * const links = new OwnedSecrets<{ userId: string }>();
 * links.add(token, { userId });
 * links.deleteOfUser(userId); // [[token, { userId }]]
 */
export class OwnedSecrets<E extends { userId: string }> implements Iterable<[string, E]> {
  readonly #bySecret = new SecretMap<E>();
  readonly #byUser = new Map<string, Set<string>>();

  get size(): number {
    return this.#bySecret.size;
  }

  get(secret: string): E | undefined {
    return this.#bySecret.get(secret);
  }

  add(secret: string, entry: E): void {
    this.delete(secret);
    this.#bySecret.set(secret, entry);
    const owned = this.#byUser.get(entry.userId);
    if (owned) owned.add(secret);
    else this.#byUser.set(entry.userId, new Set([secret]));
  }

  /** Removes the secret; answers its entry, undefined when it was not kept. */
  delete(secret: string): E | undefined {
    const entry = this.#bySecret.delete(secret);
    if (!entry) return undefined;
    const owned = this.#byUser.get(entry.userId)!;
    owned.delete(secret);
    if (owned.size === 0) this.#byUser.delete(entry.userId);
    return entry;
  }

  /** Removes every secret of the user; answers them with their entries. */
  deleteOfUser(userId: string): [string, E][] {
    return [...(this.#byUser.get(userId) ?? [])].map((secret) => [secret, this.delete(secret)!]);
  }

  [Symbol.iterator](): Iterator<[string, E]> {
    return this.#bySecret[Symbol.iterator]();
  }
}
