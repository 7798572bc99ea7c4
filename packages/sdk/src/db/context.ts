import type { Core, HttpClient } from '../core/core.js';

/** What a table, a query and a batch of one database client share. */
export interface DbContext {
  core: Core;
  http: HttpClient;
}
