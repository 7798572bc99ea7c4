import { canonicalJson } from './canonical.js';

/**
 * Distinct JSON values, looked up by value: primitives as themselves, objects and arrays by their canonical JSON.
 * Built once per query (`$in`, `$nin`, `$all`, sub-query results) or per write (`AddUnique`, `Remove`), so a lookup
 * costs the size of the value looked up, never the size of the set: no list turns a scan or a write quadratic.
 * Native maps only, so no crafted values can collide in a hash of ours.
 */
export class ValueSet {
  readonly #primitives = new Map<unknown, number>();
  readonly #objects = new Map<string, number>();

  constructor(values: Iterable<unknown> = []) {
    for (const value of values) this.add(value);
  }

  /** How many distinct values the set holds. */
  get size(): number {
    return this.#primitives.size + this.#objects.size;
  }

  /** The distinct values, when the set holds no objects or arrays; undefined otherwise. */
  primitives(): unknown[] | undefined {
    return this.#objects.size === 0 ? [...this.#primitives.keys()] : undefined;
  }

  add(value: unknown): void {
    if (this.indexOf(value) !== undefined) return;
    if (isComposite(value)) this.#objects.set(keyOf(value), this.size);
    else this.#primitives.set(value, this.size);
  }

  has(value: unknown): boolean {
    return this.indexOf(value) !== undefined;
  }

  /** The value's position among the distinct values (0 to size - 1), or undefined when it is not in the set. */
  indexOf(value: unknown): number | undefined {
    if (!isComposite(value)) return this.#primitives.get(value);
    // Looking up an object costs its canonical text: skipped when the set holds no objects at all.
    return this.#objects.size === 0 ? undefined : this.#objects.get(keyOf(value));
  }
}

const isComposite = (value: unknown): value is object => typeof value === 'object' && value !== null;

/**
 * An object's key: pointers (what sub-queries and pointer columns hold) by table and id, which is several times
 * faster than their canonical JSON; anything else by its canonical JSON (which never starts with `P`).
 */
function keyOf(value: object): string {
  const { __type, className, _id } = value as Record<string, unknown>;
  const isPointer =
    __type === 'Pointer' && typeof className === 'string' && typeof _id === 'string' && Object.keys(value).length === 3;
  return isPointer ? `P${className}/${_id}` : canonicalJson(value);
}
