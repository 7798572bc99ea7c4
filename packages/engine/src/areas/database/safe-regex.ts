import type { RE2JS } from 're2js';

/**
 * re2js (linear-time regular expressions for `$regex`) is about as large as the rest of the engine, and few queries
 * use it, so it is imported on the first query that does: bundlers then keep it in a chunk of its own that a browser
 * fetches only then.
 */
let re2: typeof RE2JS | undefined;

/** Whether a where object has a `$regex` key anywhere, sub-queries included. Iterative: no where exhausts the stack. */
function mentionsRegex(where: unknown): boolean {
  const pending: unknown[] = [where];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '$regex')) return true;
    pending.push(...Object.values(value));
  }
  return false;
}

/** Loads re2js when `where` uses `$regex` and it is not loaded yet; `safeRegex()` may then be called for that where. */
export async function loadSafeRegexFor(where: unknown): Promise<void> {
  if (re2 || !mentionsRegex(where)) return;
  re2 = (await import('re2js')).RE2JS;
}

/** re2js, for a where that `loadSafeRegexFor` has seen. */
export function safeRegex(): typeof RE2JS {
  if (!re2) throw new Error('re2js used before loadSafeRegexFor() saw a $regex');
  return re2;
}
