import type { RE2JS } from 're2js';
import type { compileGeneral } from './general-predicate.js';

// The parts of query evaluation that many queries never need are imported by the first query that does, so that
// bundlers keep them in chunks of their own that a browser fetches only then: re2js (linear-time regular expressions,
// about as large as the rest of the engine) for `$regex`, and mingo, the general evaluator, for conditions that are
// not plain comparisons on scalar columns.
let re2: typeof RE2JS | undefined;
let general: typeof compileGeneral | undefined;

/** Whether a where object has a `$regex` key anywhere, sub-queries included. Iterative: no where exhausts the stack. */
function mentionsRegex(where: unknown): boolean {
  const pending: unknown[] = [where];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!Array.isArray(value) && Object.hasOwn(value, '$regex')) return true;
    // One push per value: spreading a list of 400,000 values into push() overflows the stack.
    for (const child of Object.values(value)) pending.push(child);
  }
  return false;
}

/**
 * Imports what evaluating `where` may need and is not loaded yet: mingo for any non-empty where (which of its
 * conditions are plain is known only once it is resolved), re2js when it uses `$regex`. Call it before resolving.
 */
export async function loadEvaluatorsFor(where: Record<string, unknown>): Promise<void> {
  const loads: Promise<void>[] = [];
  if (!general && Object.keys(where).length > 0)
    loads.push(import('./general-predicate.js').then((module) => void (general = module.compileGeneral)));
  if (!re2 && mentionsRegex(where)) loads.push(import('re2js').then((module) => void (re2 = module.RE2JS)));
  await Promise.all(loads);
}

/** re2js, for a where that `loadEvaluatorsFor` has seen. */
export function safeRegex(): typeof RE2JS {
  if (!re2) throw new Error('re2js used before loadEvaluatorsFor() saw a $regex');
  return re2;
}

/** mingo's evaluator, for a where that `loadEvaluatorsFor` has seen. */
export function generalEvaluator(): typeof compileGeneral {
  if (!general) throw new Error('mingo used before loadEvaluatorsFor() saw a non-empty where');
  return general;
}
