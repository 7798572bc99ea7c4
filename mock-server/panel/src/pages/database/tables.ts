import type { TableSummary } from '@basekit/sdk/admin';
import { admin } from '../../api.js';

export type { TableSummary };
/** A column of a table as `GET /__admin/database/tables` describes it. */
export type TableColumn = TableSummary['columns'][number];

/** Every table of the project, by name. */
export const loadTables = (): Promise<TableSummary[]> => admin().database.tables();

/** Columns every row has, set by the server. */
export const SYSTEM_COLUMNS = ['_id', 'createdAt', 'updatedAt'];

/** The path parameters of a table, or of one of its rows, in the service's operations. */
export const tableParams = (tableName: string) => ({ params: { path: { tableName } } });
export const rowParams = (tableName: string, objectId: string) => ({ params: { path: { tableName, objectId } } });
