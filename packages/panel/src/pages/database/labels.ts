// Pointers and relations show the rows they point to by a display column of the target table ("name" rather than
// "Author/x7Yk…"), as Parse Dashboard and Supabase Studio do. The column is chosen per table (kept in localStorage),
// else guessed: a text column called name, title, username…, else the first text column, else the row id.
import { dataOf, project, service } from '../../api.js';
import { readStored, writeStored } from '../../components/grid/layout.js';
import { useLoad } from '../../use-load.js';
import type { TableSummary } from './tables.js';

type Json = Record<string, unknown>;

const NAMED = /^(name|title|username|displayName|label|email|slug)$/i;
/** Row ids asked of one target table at once: the service's largest `limit`. */
const CHUNK = 1000;
/** Members of a relation labelled in a cell. */
export const RELATION_LABELS = 3;

const storageKey = (table: string) => `${project().authenticationId}/${table}:display`;

/** The column that names a table's rows in pointers: chosen, else guessed from its columns. */
export function displayColumn(table: string, tables: TableSummary[] | undefined): string {
  const chosen = readStored<string>(storageKey(table));
  const columns = tables?.find((t) => t.name === table)?.columns ?? [];
  if (chosen && (chosen === '_id' || columns.some((c) => c.name === chosen))) return chosen;
  const texts = columns.filter((c) => c.type === 'String');
  return (texts.find((c) => NAMED.test(c.name)) ?? texts[0])?.name ?? '_id';
}

export const chooseDisplayColumn = (table: string, column: string) => writeStored(storageKey(table), column);

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const isPointer = (value: unknown): value is Json => isObject(value) && value['__type'] === 'Pointer';
export const isIncluded = (value: unknown): value is Json => isObject(value) && value['__type'] === 'Object';

/** A row's name by a display column: its value as short text, else its id. */
function labelOf(row: Json, column: string): string {
  const value = row[column];
  if (value === undefined || value === null || value === '') return String(row['_id']);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `Author/x7Yk…`: the key of a pointed row in `Labels`. */
export const pointerKey = (className: unknown, id: unknown) => `${String(className)}/${String(id)}`;

/** The name of each pointed row by its `pointerKey`; null for a row that does not exist (a dangling pointer). */
export type Labels = Map<string, string | null>;

/** The rows the pointers of `rows` name, by target table (included rows carry their own columns). */
function pointedIds(rows: Json[]): Map<string, Set<string>> {
  const byTable = new Map<string, Set<string>>();
  const add = (value: unknown) => {
    if (!isPointer(value)) return;
    const className = String(value['className']);
    byTable.set(className, (byTable.get(className) ?? new Set()).add(String(value['_id'])));
  };
  for (const row of rows)
    for (const value of Object.values(row)) {
      if (Array.isArray(value)) value.slice(0, RELATION_LABELS).forEach(add);
      else add(value);
    }
  return byTable;
}

/** Reads the labels of the rows pointed to: one query per target table (and thousand rows), by id. */
async function loadLabels(rows: Json[], tables: TableSummary[] | undefined): Promise<Labels> {
  const labels: Labels = new Map();
  // Rows brought by `include` carry their columns: they are named without a call.
  for (const row of rows)
    for (const value of Object.values(row))
      if (isIncluded(value)) {
        const className = String(value['className']);
        labels.set(pointerKey(className, value['_id']), labelOf(value, displayColumn(className, tables)));
      }
  await Promise.all(
    [...pointedIds(rows)].map(async ([table, ids]) => {
      const display = displayColumn(table, tables);
      const list = [...ids];
      for (let i = 0; i < list.length; i += CHUNK) {
        const chunk = list.slice(i, i + CHUNK);
        const { results } = await dataOf(
          service().POST('/object-storage/classes/query/{tableName}', {
            params: { path: { tableName: table }, query: { limit: chunk.length, keys: display } },
            body: { _id: { $in: chunk } },
          }),
        );
        for (const id of chunk) labels.set(pointerKey(table, id), null);
        for (const row of results) labels.set(pointerKey(table, row['_id']), labelOf(row, display));
      }
    }),
  );
  return labels;
}

/**
 * The labels of the rows that the pointers and relations of `rows` point to, read after the rows show (a cell shows
 * the row id until they come). A failure leaves the ids.
 */
export function usePointerLabels(rows: Json[] | undefined, tables: TableSummary[] | undefined): Labels {
  const labels = useLoad(
    () => (rows ? loadLabels(rows, tables).catch(() => new Map()) : Promise.resolve(new Map())),
    [rows, tables],
  );
  return labels.data ?? new Map();
}
