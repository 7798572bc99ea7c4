// Small validators for JSON fields. Each takes the value and the field's path (for the message) and returns the
// value as it is stored, or throws 400 naming the field.
import { ErrorCode, badRequest } from '../../shared/errors.js';
import { isPlainObject } from '../../shared/http/body.js';

export type Check<T = unknown> = (value: unknown, field: string) => T;

export const invalid = (field: string, message: string) =>
  badRequest(ErrorCode.VALIDATION_FAILED, `"${field}" ${message}`);

export const boolean: Check<boolean> = (value, field) => {
  if (typeof value !== 'boolean') throw invalid(field, 'must be true or false');
  return value;
};

export function string({
  pattern,
  maxLength = 2000,
  hint,
}: {
  pattern?: RegExp;
  maxLength?: number;
  hint?: string;
} = {}): Check<string> {
  return (value, field) => {
    if (typeof value !== 'string' || value === '') throw invalid(field, 'must be a non-empty string');
    if (value.length > maxLength) throw invalid(field, `must be at most ${maxLength} characters`);
    if (pattern && !pattern.test(value)) throw invalid(field, `must be ${hint ?? `of the form ${pattern.source}`}`);
    return value;
  };
}

export function integer(min: number, max: number): Check<number> {
  return (value, field) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw invalid(field, `must be an integer from ${min} to ${max}`);
    }
    return value;
  };
}

export function oneOf<T extends string>(values: readonly T[]): Check<T> {
  return (value, field) => {
    if (!values.includes(value as T)) throw invalid(field, `must be one of ${values.join(', ')}`);
    return value as T;
  };
}

/**
 * An absolute `http:` or `https:` address, stored as written. No spaces or control characters: URL parsers drop
 * line breaks and tabs silently, but the text is also written as is into master playlists.
 */
export const httpUrl: Check<string> = (value, field) => {
  const text = string()(value, field);
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol) || /[\s\x00-\x1f\x7f]/.test(text)) {
    throw invalid(field, 'must be an http or https URL without spaces or control characters');
  }
  return text;
};

export function arrayOf<T>(item: Check<T>, { min, max }: { min: number; max: number }): Check<T[]> {
  return (value, field) => {
    if (!Array.isArray(value) || value.length < min || value.length > max)
      throw invalid(field, `must be an array of ${min} to ${max} items`);
    return value.map((v, i) => item(v, `${field}[${i}]`));
  };
}

/** An object of string keys (matching `key`) to strings (checked by `entry`). */
export function stringMap(key: RegExp, entry: Check<string>, maxEntries = 50): Check<Record<string, string>> {
  return (value, field) => {
    if (!isPlainObject(value)) throw invalid(field, 'must be an object of strings');
    const entries = Object.entries(value);
    if (entries.length > maxEntries) throw invalid(field, `must have at most ${maxEntries} keys`);
    for (const [k, v] of entries) {
      if (!key.test(k)) throw invalid(`${field}.${k}`, 'is not an allowed name');
      entry(v, `${field}.${k}`);
    }
    return { ...(value as Record<string, string>) };
  };
}

/** An object with exactly these known fields; `required` ones must be present. Unknown fields are refused. */
export function object(shape: Record<string, Check>, required: readonly string[] = []): Check<Record<string, unknown>> {
  return (value, field) => {
    const at = (key: string) => (field ? `${field}.${key}` : key);
    if (!isPlainObject(value)) throw invalid(field || 'body', 'must be a JSON object');
    for (const key of required) if (value[key] === undefined) throw invalid(at(key), 'is required');
    const result: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const check = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!check) throw invalid(at(key), 'is not a known field');
      if (v !== undefined) result[key] = check(v, at(key));
    }
    return result;
  };
}
