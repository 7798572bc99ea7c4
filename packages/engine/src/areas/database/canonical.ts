import { isPlainObject } from '../../shared/http.js';

/**
 * The JSON text of a value with the keys of every object sorted, so that equal values give equal text whatever the
 * order of their keys (as mingo's deep equality has it). It names a sub-query, so that a request evaluates each
 * distinct one once, and the objects of a `ValueSet`.
 *
 * @example
 * canonicalJson({ b: [1, { d: 0, c: 'x' }], a: null }); // '{"a":null,"b":[1,{"c":"x","d":0}]}'
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const members = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
