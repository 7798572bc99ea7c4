// Saving what a row editor (the row's page, or a cell of the grid) changed: only the changed columns, through the
// service's own API, after checking that the rows its pointers and relations name exist (the service takes a pointer
// to any id; the panel does not let a typo become a link to nothing).
import type { components } from '@basekit/sdk';
import { dataOf, service } from '../../api.js';
import { changesOf, type Edits } from './row-draft.js';
import { rowParams, tableParams } from './tables.js';

type Json = Record<string, unknown>;

/** A body the drafts made, as the service takes it: its values are checked by the service (400 with the column). */
const input = (body: Json) => body as components['schemas']['DatabaseRowInput'];

/** The row ids each changed pointer and each relation's added rows name, by table, with the columns naming them. */
function namedRows(initial: Edits, edits: Edits): Map<string, Map<string, string[]>> {
  const byTable = new Map<string, Map<string, string[]>>();
  const add = (table: string, id: string, column: string) => {
    const ids = byTable.get(table) ?? new Map<string, string[]>();
    byTable.set(table, ids.set(id, [...(ids.get(id) ?? []), column]));
  };
  for (const [column, draft] of Object.entries(edits)) {
    if (JSON.stringify(draft) === JSON.stringify(initial[column])) continue;
    if (draft?.kind === 'Pointer' && draft.className && draft.id) add(draft.className, draft.id, column);
    if (draft?.kind === 'Relation' && draft.className) {
      const before = initial[column];
      const had = before?.kind === 'Relation' ? before.ids : [];
      for (const id of draft.ids) if (id && !had.includes(id)) add(draft.className, id, column);
    }
  }
  return byTable;
}

/** Messages for the rows the edits name that do not exist ("likes: no Author row has the id x"). */
async function missingRows(initial: Edits, edits: Edits): Promise<string[]> {
  const missing: string[] = [];
  for (const [table, ids] of namedRows(initial, edits)) {
    const { results } = await dataOf(
      service().POST('/object-storage/classes/query/{tableName}', {
        params: { path: { tableName: table }, query: { limit: Math.min(ids.size, 1000), keys: '_id' } },
        body: { _id: { $in: [...ids.keys()] } },
      }),
    );
    const found = new Set(results.map((row) => row['_id']));
    for (const [id, columns] of ids)
      if (!found.has(id)) missing.push(`${columns.join(', ')}: no ${table} row has the id ${id}`);
  }
  return missing;
}

/**
 * Creates a row (without `rowId`) or changes one with the columns the editor changed; answers the row's id. Throws
 * an Error naming each column whose value is not valid or names a row that does not exist, before writing anything.
 */
export async function saveEdits(
  table: string,
  rowId: string | undefined,
  initial: Edits,
  edits: Edits,
): Promise<string> {
  const changes = changesOf(initial, edits);
  if ('errors' in changes)
    throw new Error(
      Object.entries(changes.errors)
        .map(([name, error]) => `${name}: ${error}`)
        .join('; '),
    );
  const missing = await missingRows(initial, edits);
  if (missing.length > 0) throw new Error(`${missing.join('; ')}. Nothing was saved.`);
  if (rowId === undefined) {
    const created = await dataOf(
      service().POST('/object-storage/classes/{tableName}', {
        ...tableParams(table),
        body: input(changes.bodies[0] ?? {}),
      }),
    );
    return created._id;
  }
  for (const body of changes.bodies)
    await dataOf(
      service().PUT('/object-storage/classes/{tableName}/{objectId}', {
        ...rowParams(table, rowId),
        body: input(body),
      }),
    );
  return rowId;
}
