import { ErrorCode, badRequest } from '../../../shared/errors.js';

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Columns every row has; the server sets them, a request body may not. */
export const SYSTEM_COLUMNS = ['_id', 'createdAt', 'updatedAt'] as const;

/** `query` would make `/classes/query/<table>` ambiguous, so it cannot name a table. */
const RESERVED_TABLES = new Set(['query']);

/** A table name (Parse rule `^[A-Za-z][A-Za-z0-9_]*$`, not `query`); 400 code 103 otherwise. */
export function checkTableName(name: string): string {
  if (!NAME.test(name) || RESERVED_TABLES.has(name))
    throw badRequest(ErrorCode.INVALID_CLASS_NAME, `"${name}" is not a valid table name`);
  return name;
}

/** A user-defined column name; 400 code 105 otherwise. */
export function checkColumnName(name: string): string {
  if (!NAME.test(name)) throw badRequest(ErrorCode.INVALID_KEY_NAME, `"${name}" is not a valid column name`);
  return name;
}

/** Steps of a column path at most: as deep as values may nest (values.ts), and as deep as `include` recurses. */
const MAX_PATH_STEPS = 32;

/**
 * A column path of a query, `order` or `keys`: a column (or `_id`, `createdAt`, `updatedAt`), optionally followed by
 * `.key` steps into a JSON object or an included row, 32 steps at most. 400 code 105 otherwise.
 */
export function checkPath(path: string): string {
  const [head = '', ...rest] = path.split('.');
  if (rest.length >= MAX_PATH_STEPS)
    throw badRequest(
      ErrorCode.INVALID_KEY_NAME,
      `a column path has at most ${MAX_PATH_STEPS} steps, not ${rest.length + 1}`,
    );
  const headOk = NAME.test(head) || (SYSTEM_COLUMNS as readonly string[]).includes(head);
  if (!headOk || head === 'ACL' || rest.some((step) => step === '' || step.startsWith('$'))) {
    throw badRequest(ErrorCode.INVALID_KEY_NAME, `"${path}" is not a valid column name`);
  }
  return path;
}

/** A key inside a JSON object value: not empty, no leading `$`, no `.` (they would be unreachable by queries). */
export function checkNestedKey(key: string): void {
  if (key === '' || key.startsWith('$') || key.includes('.'))
    throw badRequest(ErrorCode.INVALID_KEY_NAME, `"${key}" is not a valid key of a JSON object`);
}
