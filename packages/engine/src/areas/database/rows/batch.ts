import type { Principal } from '../../../shared/env.js';
import { ApiError, ErrorCode, badRequest } from '../../../shared/errors.js';
import { isPlainObject } from '../../../shared/http/body.js';
import type { Moment } from '../../../shared/moment.js';
import type { Project } from '../../../shared/project.js';
import { createRow, deleteRow, updateRow } from './rows.js';

const BATCH_LIMIT = 50;

export type BatchResult = { success: unknown } | { error: { code: number; error: string } };

type Operation = () => unknown;

// Paths relative to the database root (the contract's `runBatch`), with or without the `/object-storage` prefix.
const TABLE_PATH = /^(?:\/object-storage)?\/classes\/([^/]+)\/?$/;
const ROW_PATH = /^(?:\/object-storage)?\/classes\/([^/]+)\/([^/]+)$/;

const invalid = (index: number, message: string) =>
  badRequest(ErrorCode.INVALID_JSON, `requests[${index}]: ${message}`);

/** Turns one batch item into the single operation it names; 400 for an item that names none. */
function route(project: Project, moment: Moment, principal: Principal, item: unknown, index: number): Operation {
  if (!isPlainObject(item) || typeof item['method'] !== 'string' || typeof item['path'] !== 'string') {
    throw invalid(index, 'each request is {"method", "path", "body"}');
  }
  const { path, body } = item;
  const method = item['method'].toUpperCase();
  if (body !== undefined && !isPlainObject(body)) throw invalid(index, '"body" must be a JSON object');
  const fields = body ?? {};
  const table = TABLE_PATH.exec(path);
  const row = ROW_PATH.exec(path);
  if (method === 'POST' && table) return () => createRow(project, moment, table[1]!, fields);
  if (method === 'PUT' && row) return () => updateRow(project, moment, principal, row[1]!, row[2]!, fields);
  if (method === 'DELETE' && row) return () => deleteRow(project, principal, row[1]!, row[2]!);
  throw invalid(
    index,
    `cannot route ${method} ${path}: a batch holds POST /classes/<table>, PUT and DELETE /classes/<table>/<id>`,
  );
}

/**
 * Runs a batch (the contract's `runBatch`): every item is routed first (a malformed batch changes nothing and answers 400), then
 * the items run in order, each atomically; a failing item yields `{error}` and the next ones still run.
 *
 * @example
 * runBatch(project, moment, principal, [{ method: 'POST', path: '/classes/Score', body: { score: 1 } }, { method: 'DELETE', path: '/classes/Score/nope' }]);
 * // [{ success: { createdAt: '…', _id: '…' } }, { error: { code: 101, error: 'no row "nope" in table "Score"' } }]
 */
export function runBatch(project: Project, moment: Moment, principal: Principal, requests: unknown): BatchResult[] {
  if (!Array.isArray(requests)) throw badRequest(ErrorCode.INVALID_JSON, 'a batch is {"requests": [...]}');
  if (requests.length > BATCH_LIMIT)
    throw badRequest(ErrorCode.INVALID_JSON, `a batch holds at most ${BATCH_LIMIT} requests, not ${requests.length}`);
  const operations = requests.map((item, index) => route(project, moment, principal, item, index));
  return operations.map((operation) => {
    try {
      return { success: operation() };
    } catch (error) {
      if (error instanceof ApiError) return { error: error.toJSON() };
      throw error;
    }
  });
}
