import type { AppContext } from './env.js';
import { ErrorCode, badRequest } from './errors.js';

function rejectProtoKeys(key: string, value: unknown): unknown {
  if (key === '__proto__') throw badRequest(ErrorCode.INVALID_KEY_NAME, 'the key "__proto__" is not allowed');
  return value;
}

/** The request body parsed as JSON (400, code 107 when it is not); `__proto__` keys are refused. */
export async function readJson(c: AppContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text, rejectProtoKeys);
  } catch (error) {
    if (error instanceof SyntaxError) throw badRequest(ErrorCode.INVALID_JSON, `request body is not valid JSON: ${error.message}`);
    throw error;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request body as a JSON object; an empty body counts as `{}` when `emptyAllowed`. */
export async function readJsonObject(c: AppContext, { emptyAllowed = false } = {}): Promise<Record<string, unknown>> {
  const body = await readJson(c);
  if (body === undefined && emptyAllowed) return {};
  if (!isPlainObject(body)) throw badRequest(ErrorCode.INVALID_JSON, 'request body must be a JSON object');
  return body;
}

/** A query parameter as a whole number within bounds, or `fallback` when absent. */
export function intParam(c: AppContext, name: string, { min, max, fallback }: { min: number; max: number; fallback?: number }): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') {
    if (fallback !== undefined) return fallback;
    throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" is required`);
  }
  if (!/^-?\d+$/.test(raw)) throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" must be an integer`);
  const value = Number(raw);
  if (value < min || value > max) throw badRequest(ErrorCode.VALIDATION_FAILED, `query parameter "${name}" must be between ${min} and ${max}`);
  return value;
}
