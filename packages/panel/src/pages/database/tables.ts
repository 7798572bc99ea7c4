import type { TableSummary } from '@basekit/sdk/admin';
import { admin } from '../../api.js';

export type { TableSummary };
/** A column of a table as `GET /__admin/database/tables` describes it. */
export type TableColumn = TableSummary['columns'][number];

/** What a view of one table takes: its name, every table (for column types and display columns), and whom to tell of a change. */
export interface TableViewProps {
  table: string;
  tables: TableSummary[] | undefined;
  onChanged: () => void;
}

/** Every table of the project, by name. */
export const loadTables = (): Promise<TableSummary[]> => admin().database.tables();

/** Columns every row has, set by the server. */
export const SYSTEM_COLUMNS = ['_id', 'createdAt', 'updatedAt'];

/** The path parameters of a table, or of one of its rows, in the service's operations. */
export const tableParams = (tableName: string) => ({ params: { path: { tableName } } });
export const rowParams = (tableName: string, objectId: string) => ({ params: { path: { tableName, objectId } } });

/** The types of the columns every row has. */
const SYSTEM_TYPES: Record<string, TableColumn> = {
  _id: { name: '_id', type: 'String' },
  createdAt: { name: 'createdAt', type: 'Date' },
  updatedAt: { name: 'updatedAt', type: 'Date' },
};

/** The columns of a table (its own, then `_id`, `createdAt`, `updatedAt`) as the table list gives them. */
export function columnsOf(tables: TableSummary[] | undefined, table: string): TableColumn[] {
  return [...(tables?.find((t) => t.name === table)?.columns ?? []), ...Object.values(SYSTEM_TYPES)];
}

/** The type of a column of a table, the system columns' included; undefined when the table list does not know it. */
export const columnType = (
  tables: TableSummary[] | undefined,
  table: string,
  column: string,
): TableColumn | undefined =>
  SYSTEM_TYPES[column] ?? tables?.find((t) => t.name === table)?.columns.find((c) => c.name === column);
