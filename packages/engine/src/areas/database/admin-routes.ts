import { adminKey } from '../../admin/guard.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import { ErrorCode, badRequest } from '../../shared/errors.js';
import { readJsonObject } from '../../shared/http/body.js';
import { createRoutes } from '../../shared/http/routes.js';
import { importRows } from './rows/import.js';
import { deleteTable, dropColumn, renameColumn } from './tables/schema-changes.js';
import { describeTable, describeTables } from './tables/tables.js';

/**
 * The database's admin API (not part of the service contract): what the service cannot do to tables, and the
 * management panel's database page does (list and describe them, import rows at once, rename or drop a column,
 * delete a table).
 */
export const databaseAdminRoutes = createRoutes();

databaseAdminRoutes.use('/__admin/database/*', adminKey);

databaseAdminRoutes.get('/__admin/database/tables', reads, (c) => c.json({ tables: describeTables(c.env.project) }));

databaseAdminRoutes.get('/__admin/database/tables/:table', reads, (c) =>
  c.json(describeTable(c.env.project, c.req.param('table'))),
);

databaseAdminRoutes.delete('/__admin/database/tables/:table', changes(), (c) =>
  c.json(deleteTable(c.env.project, c.req.param('table'))),
);

// A table's rows are larger than any request body of the API: bounded like an upload (or a state import).
databaseAdminRoutes.post(
  '/__admin/database/tables/:table/import',
  changes({ bodyLimit: 'maxUploadBytes' }),
  async (c) => {
    const body = await readJsonObject(c);
    return c.json(importRows(c.env.project, c.env.moment, c.req.param('table'), body));
  },
);

databaseAdminRoutes.patch('/__admin/database/tables/:table/columns/:column', changes(), async (c) => {
  const { name } = await readJsonObject(c);
  if (typeof name !== 'string') throw badRequest(ErrorCode.VALIDATION_FAILED, '"name" must be the new column name');
  const table = c.req.param('table');
  renameColumn(c.env.project, table, c.req.param('column'), name);
  return c.json(describeTable(c.env.project, table));
});

databaseAdminRoutes.delete('/__admin/database/tables/:table/columns/:column', changes(), (c) => {
  const table = c.req.param('table');
  dropColumn(c.env.project, table, c.req.param('column'));
  return c.json(describeTable(c.env.project, table));
});
