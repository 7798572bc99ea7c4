import type { AppContext } from '../../shared/env.js';
import { ErrorCode, badRequest } from '../../shared/errors.js';
import { readJsonObject } from '../../shared/http/body.js';
import { importRows } from './rows/import.js';
import { deleteTable, dropColumn, renameColumn } from './tables/schema-changes.js';
import { describeTable, describeTables } from './tables/tables.js';

// The database's admin API (`admin-routes.ts`), loaded with its first call: the management panel makes them, an app's
// page under msw does not.

export const listTables = (c: AppContext): Response => c.json({ tables: describeTables(c.env.project) });

export const showTable = (c: AppContext): Response => c.json(describeTable(c.env.project, c.req.param('table')!));

export const removeTable = (c: AppContext): Response => c.json(deleteTable(c.env.project, c.req.param('table')!));

export async function importTableRows(c: AppContext): Promise<Response> {
  const body = await readJsonObject(c);
  return c.json(importRows(c.env.project, c.env.moment, c.req.param('table')!, body));
}

export async function renameTableColumn(c: AppContext): Promise<Response> {
  const { name } = await readJsonObject(c);
  if (typeof name !== 'string') throw badRequest(ErrorCode.VALIDATION_FAILED, '"name" must be the new column name');
  const table = c.req.param('table')!;
  renameColumn(c.env.project, table, c.req.param('column')!, name);
  return c.json(describeTable(c.env.project, table));
}

export function dropTableColumn(c: AppContext): Response {
  const table = c.req.param('table')!;
  dropColumn(c.env.project, table, c.req.param('column')!);
  return c.json(describeTable(c.env.project, table));
}
