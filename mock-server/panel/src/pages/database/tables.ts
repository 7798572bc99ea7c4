import { admin } from '../../api.js';

/** A column of a table as `GET /__admin/database/tables` describes it. */
export interface TableColumn {
  name: string;
  type: 'String' | 'Number' | 'Boolean' | 'Date' | 'Object' | 'Array' | 'Pointer' | 'Relation';
  targetClass?: string;
}

/** A table with its row count and columns (`GET /__admin/database/tables`). */
export interface TableSummary {
  name: string;
  rowCount: number;
  columns: TableColumn[];
}

/** Every table of the project, by name. */
export async function loadTables(): Promise<TableSummary[]> {
  return (await admin<{ tables: TableSummary[] }>('/__admin/database/tables')).tables;
}

/** Columns every row has, set by the server. */
export const SYSTEM_COLUMNS = ['_id', 'createdAt', 'updatedAt'];

/** The service's path of a table, or of one of its rows. */
export const tablePath = (table: string, id?: string) =>
  `/object-storage/classes/${encodeURIComponent(table)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;
