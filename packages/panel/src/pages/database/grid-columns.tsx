import type { GridColumn } from '../../components/grid/data-grid.js';
import { href } from '../../router.js';
import { Cell, type CellContext } from './cell.js';
import { SYSTEM_COLUMNS, type TableColumn } from './tables.js';

type Json = Record<string, unknown>;

/**
 * Widths a column starts with, by type, unless its header needs more: a date's ISO form fits; JSON is cut, not given
 * the grid's width.
 */
const WIDTHS: Record<string, number> = {
  String: 180,
  Number: 110,
  Boolean: 90,
  Date: 220,
  Pointer: 170,
  Relation: 230,
  Object: 240,
  Array: 200,
  ACL: 170,
};

/**
 * The width a header needs to show its column's name and type whole (about 9.5 px a character of the bold name, 7.5
 * of the smaller type, and room for the padding, the sort arrow and the resize handle), at most 320 px.
 */
function headerWidth(name: string, type: string | undefined): number {
  return Math.min(320, Math.ceil(name.length * 9.5 + (type ? type.length * 7.5 + 4 : 0) + 44));
}

/**
 * The grid's columns of a table: `_id` (a link to the row's page), the table's columns (those of `keys` when the query
 * names some; any other the rows have), `createdAt`, `updatedAt`, `ACL`. Every column but the system ones is edited in
 * place; every one but relations and ACLs sorts.
 */
export function gridColumns(
  table: string,
  columns: TableColumn[],
  keys: string,
  rows: Json[],
  context: Omit<CellContext, 'rowId' | 'column' | 'type'>,
): GridColumn<Json>[] {
  const chosen = keys.trim() ? keys.split(',').map((key) => key.trim()) : undefined;
  const names = chosen ?? columns.map((c) => c.name);
  if (!chosen) for (const row of rows) for (const name of Object.keys(row)) if (!names.includes(name)) names.push(name);
  const own = names.filter((name) => !SYSTEM_COLUMNS.includes(name) && name !== 'ACL');
  const typeOf = (name: string) => (name === 'ACL' ? 'ACL' : columns.find((c) => c.name === name)?.type);
  const column = (name: string, type: string | undefined): GridColumn<Json> => {
    const note = type && name !== 'ACL' ? type : undefined;
    return {
      key: name,
      title: name,
      note,
      width: Math.max(WIDTHS[type ?? ''] ?? 160, headerWidth(name, note)),
      sortable: type !== 'Relation' && type !== 'ACL',
      editable: !SYSTEM_COLUMNS.includes(name),
      cell: (row) => <Cell value={row[name]} context={{ ...context, rowId: String(row['_id']), column: name, type }} />,
    };
  };
  return [
    {
      key: '_id',
      title: '_id',
      width: 125,
      sortable: true,
      cell: (row) => <a href={href('database', table, String(row['_id']))}>{String(row['_id'])}</a>,
    },
    ...own.map((name) => column(name, typeOf(name))),
    column('createdAt', 'Date'),
    column('updatedAt', 'Date'),
    column('ACL', 'ACL'),
  ];
}
