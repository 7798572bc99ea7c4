import type { Area } from '../../area.js';
import { databaseRoutes } from './routes.js';
import { databaseState } from './state.js';

/** The object database (openapi/areas/database.yaml): tables of schemaless rows, queries, ACLs and batches. */
export const databaseArea: Area = {
  name: 'database',
  routes: databaseRoutes,
  state: databaseState,
};
