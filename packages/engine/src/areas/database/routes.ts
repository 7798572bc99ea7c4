import { bearer, projectHeader, serviceEnabled } from '../../shared/auth/middlewares.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import { readJsonObject } from '../../shared/http/body.js';
import { createRoutes } from '../../shared/http/routes.js';
import { databaseAdminRoutes } from './admin-routes.js';
import { runBatch } from './rows/batch.js';
import { loadEvaluatorsFor } from './where/evaluators.js';
import { queryOptions } from './query/params.js';
import { queryRows } from './query/query.js';
import { createRow, deleteAllRows, deleteRow, getRow, updateRow } from './rows/rows.js';

export const databaseRoutes = createRoutes();

databaseRoutes.use(
  '/object-storage/*',
  serviceEnabled('database'),
  projectHeader('x-service-object-storage-id', 'objectStorageId', 404),
  bearer,
);

// Registered before the row routes, so that `query` is never taken for a table name.
databaseRoutes.post('/object-storage/classes/query/:table', reads, async (c) => {
  const options = queryOptions(c);
  const where = await readJsonObject(c, { emptyAllowed: true });
  await loadEvaluatorsFor(where);
  return c.json(queryRows(c.env.project, c.get('principal'), c.req.param('table'), where, options));
});

for (const path of ['/object-storage/classes/:table', '/object-storage/classes/:table/'] as const) {
  databaseRoutes.post(path, changes(), async (c) => {
    const body = await readJsonObject(c);
    return c.json(createRow(c.env.project, c.env.moment, c.req.param('table'), body), 201);
  });
}

databaseRoutes.get('/object-storage/classes/:table/:id', reads, (c) =>
  c.json(getRow(c.env.project, c.get('principal'), c.req.param('table'), c.req.param('id'))),
);

databaseRoutes.put('/object-storage/classes/:table/:id', changes(), async (c) => {
  const body = await readJsonObject(c);
  const { project, moment } = c.env;
  return c.json(updateRow(project, moment, c.get('principal'), c.req.param('table'), c.req.param('id'), body));
});

databaseRoutes.delete('/object-storage/classes/:table/:id', changes(), (c) =>
  c.json(deleteRow(c.env.project, c.get('principal'), c.req.param('table'), c.req.param('id'))),
);

databaseRoutes.delete('/object-storage/classes/:table', changes(), (c) =>
  c.json(deleteAllRows(c.env.project, c.get('principal'), c.req.param('table'))),
);

databaseRoutes.post('/object-storage/batch', changes(), async (c) => {
  const body = await readJsonObject(c);
  return c.json(runBatch(c.env.project, c.env.moment, c.get('principal'), body['requests']));
});

databaseRoutes.route('/', databaseAdminRoutes);
