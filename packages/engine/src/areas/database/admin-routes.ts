import { adminKey } from '../../admin/guard.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import { createRoutes } from '../../shared/http/routes.js';
import { loadOnce } from '../../shared/util/load-once.js';

const calls = loadOnce(() => import('./admin-calls.js'));

/**
 * The database's admin API (not part of the service contract): what the service cannot do to tables, and the
 * management panel's database page does (list and describe them, import rows at once, rename or drop a column,
 * delete a table). Its code loads with its first call (see `admin-calls.ts`).
 */
export const databaseAdminRoutes = createRoutes();

databaseAdminRoutes.use('/__admin/database/*', adminKey);

databaseAdminRoutes.get('/__admin/database/tables', reads, async (c) => (await calls()).listTables(c));

databaseAdminRoutes.get('/__admin/database/tables/:table', reads, async (c) => (await calls()).showTable(c));

databaseAdminRoutes.delete('/__admin/database/tables/:table', changes(), async (c) => (await calls()).removeTable(c));

// A table's rows are larger than any request body of the API: bounded like an upload (or a state import).
databaseAdminRoutes.post(
  '/__admin/database/tables/:table/import',
  changes({ bodyLimit: 'maxUploadBytes' }),
  async (c) => (await calls()).importTableRows(c),
);

databaseAdminRoutes.patch('/__admin/database/tables/:table/columns/:column', changes(), async (c) =>
  (await calls()).renameTableColumn(c),
);

databaseAdminRoutes.delete('/__admin/database/tables/:table/columns/:column', changes(), async (c) =>
  (await calls()).dropTableColumn(c),
);
