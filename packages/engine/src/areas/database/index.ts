import type { Area } from '../../area.js';
import { databaseRoutes } from './routes.js';
import { databaseState } from './state.js';

/** The object database (spec 2.4, 2.5, 4.2-4.5): tables of schemaless rows, queries, ACLs and batches. */
export const databaseArea: Area = {
  name: 'database',
  routes: databaseRoutes,
  state: databaseState,
};
