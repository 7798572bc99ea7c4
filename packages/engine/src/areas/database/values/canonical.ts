import { isPlainObject } from '../../../shared/http/body.js';

/** A copy of a JSON value whose objects have their keys inserted in sorted order. */
function sortedCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedCopy);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) copy[key] = sortedCopy(value[key]);
  return copy;
}

/**
 * The JSON text of a value with the keys of every object sorted, so that equal values give equal text whatever the
 * order of their keys (as mingo's deep equality has it). It names a sub-query, so that a request evaluates each
 * distinct one once, and the objects of a `ValueSet`. (Integer-like keys come first, in numeric order, as in every
 * JSON text of JavaScript: still the same text for the same keys.)
 *
 * @example
 * canonicalJson({ b: [1, { d: 0, c: 'x' }], a: null }); // '{"a":null,"b":[1,{"c":"x","d":0}]}'
 */
export const canonicalJson = (value: unknown): string => JSON.stringify(sortedCopy(value)) ?? 'null';
