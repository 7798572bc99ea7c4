import type { Project } from '../../shared/project.js';
import { databaseState, type ColumnType } from './state.js';

/** One table as `GET /__admin/database/tables` lists it. */
export interface TableSummary {
  name: string;
  rowCount: number;
  /** The user-defined columns in the order they were first written (`_id`, `createdAt`, `updatedAt`, `ACL` are every row's). */
  columns: { name: string; type: ColumnType; targetClass?: string }[];
}

/**
 * Every table of the project, by name: its row count and the type of each column (fixed by its first value;
 * pointers and relations name their target table). A table emptied by delete-all stays, with its column types.
 *
 * @example
 * describeTables(project); // [{ name: 'Note', rowCount: 2, columns: [{ name: 'author', type: 'Pointer', targetClass: 'Author' }] }]
 */
export function describeTables(project: Project): TableSummary[] {
  return [...project.state(databaseState).tables]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, table]) => ({
      name,
      rowCount: table.rows.size,
      columns: [...table.columns].map(([column, { type, targetClass }]) => ({
        name: column,
        type,
        ...(targetClass !== undefined && { targetClass }),
      })),
    }));
}
