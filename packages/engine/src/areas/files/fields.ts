import { ErrorCode, badRequest } from '../../shared/errors.js';

const invalid = (message: string) => badRequest(ErrorCode.VALIDATION_FAILED, message);

/** A JSON array of strings (at least one). */
export function stringList(body: Record<string, unknown>, key: string): string[] {
  const value = body[key];
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) {
    throw invalid(`"${key}" must be a non-empty array of strings`);
  }
  return value as string[];
}

/** A flag as JSON gives it, or as the published clients write it: `true`/`false`, or the strings "true"/"false". */
const FLAGS = new Map<unknown, boolean>([
  [true, true],
  [false, false],
  ['true', true],
  ['false', false],
]);

/** A JSON array of flags (see `FLAGS`), one per element of the list it goes with; all false when absent. */
export function flagList(body: Record<string, unknown>, key: string, length: number, of: string): boolean[] {
  const value = body[key];
  if (value === undefined) return Array.from({ length }, () => false);
  if (!Array.isArray(value) || value.length !== length || !value.every((v) => FLAGS.has(v))) {
    throw invalid(`"${key}" must be an array of ${length} booleans, one per element of "${of}"`);
  }
  return value.map((v) => FLAGS.get(v)!);
}

/** A whole JSON number within bounds, or `fallback` when absent. */
export function intField(
  body: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const value = body[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`"${key}" must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** One of the allowed strings, or the first when absent. */
export function choiceField<T extends string>(
  body: Record<string, unknown>,
  key: string,
  allowed: readonly [T, ...T[]],
): T {
  const value = body[key] ?? allowed[0];
  if (!allowed.includes(value as T)) throw invalid(`"${key}" must be one of ${allowed.join(', ')}`);
  return value as T;
}
