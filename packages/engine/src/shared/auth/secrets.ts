/**
 * Whether `given` is `secret`, in a time that depends on the length of `secret` alone, never on where the two differ:
 * for every comparison of something a client sends with a secret (keys, password hashes, tokens). Portable (no
 * platform's crypto), so the engine compares the same way in Node and in browsers.
 *
 * @example
 * sameSecret(request.headers.get('x-service-authentication-key') ?? '', config.masterKey); // true or false
 */
export function sameSecret(given: string, secret: string): boolean {
  let difference = given.length ^ secret.length;
  // Past the end of `given`, charCodeAt answers NaN, which `| 0` turns into 0: the loop runs secret.length times.
  for (let i = 0; i < secret.length; i++) difference |= (given.charCodeAt(i) | 0) ^ secret.charCodeAt(i);
  return difference === 0;
}

/** The characters of a secret that choose its bucket: 16 hex digits (64 bits) of a 64-digit token. */
const SELECTOR_LENGTH = 16;

/**
 * Values kept under secrets (refresh tokens, confirmation links), found without comparing a secret character by
 * character with what a client sent: the first characters select a bucket (a map lookup, which tells only whether a
 * secret starts so: 64 random bits nobody can guess), and the whole secret is then compared in constant time
 * (`sameSecret`). Iterates in the order the secrets were added.
 *
 * @example
 * const tokens = new SecretMap<string>();
 * tokens.set(newSecret(), userId);
 * tokens.get(fromTheClient); // the user id, or undefined
 */
export class SecretMap<V> implements Iterable<[string, V]> {
  /** Selector -> the secrets that start with it and their values (one, but for secrets imported by hand). */
  readonly #buckets = new Map<string, [string, V][]>();
  #size = 0;

  constructor(entries: Iterable<readonly [string, V]> = []) {
    for (const [secret, value] of entries) this.set(secret, value);
  }

  get size(): number {
    return this.#size;
  }

  get(secret: string): V | undefined {
    const bucket = this.#buckets.get(secret.slice(0, SELECTOR_LENGTH));
    return bucket?.[this.#indexIn(bucket, secret)]?.[1];
  }

  set(secret: string, value: V): this {
    const selector = secret.slice(0, SELECTOR_LENGTH);
    const bucket = this.#buckets.get(selector);
    if (!bucket) this.#buckets.set(selector, [[secret, value]]);
    else {
      const at = this.#indexIn(bucket, secret);
      if (at !== -1) {
        bucket[at]![1] = value;
        return this;
      }
      bucket.push([secret, value]);
    }
    this.#size++;
    return this;
  }

  /** Removes the secret; answers its value, undefined when it was not kept. */
  delete(secret: string): V | undefined {
    const selector = secret.slice(0, SELECTOR_LENGTH);
    const bucket = this.#buckets.get(selector);
    const at = bucket ? this.#indexIn(bucket, secret) : -1;
    if (at === -1) return undefined;
    const [[, value]] = bucket!.splice(at, 1) as [[string, V]];
    if (bucket!.length === 0) this.#buckets.delete(selector);
    this.#size--;
    return value;
  }

  *[Symbol.iterator](): Iterator<[string, V]> {
    for (const bucket of this.#buckets.values()) for (const [secret, value] of bucket) yield [secret, value];
  }

  /** Where `secret` is in its bucket (-1: nowhere), every kept secret of the bucket compared in full. */
  #indexIn(bucket: [string, V][], secret: string): number {
    let found = -1;
    for (let i = 0; i < bucket.length; i++) if (sameSecret(secret, bucket[i]![0])) found = i;
    return found;
  }
}
