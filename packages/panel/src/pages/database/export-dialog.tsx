import type { ColumnDefinition } from '@basekit/sdk/admin';
import { useState } from 'preact/hooks';
import { dataOf, service } from '../../api.js';
import { Dialog } from '../../components/dialog.js';
import { Status } from '../../components/status.js';
import { fileTime, saveFile } from '../../save-file.js';
import { useAction } from '../../use-action.js';
import { toCsvFile, toJsonFile } from './transfer.js';

type Json = Record<string, unknown>;

/** Rows read at a time: the service's largest `limit`. */
const PAGE = 1000;

/** Every row of a query, page after page (in its order, else in creation order). */
async function readAll(
  table: string,
  where: Json,
  order: string | undefined,
  onProgress: (read: number, total: number) => void,
): Promise<Json[]> {
  const rows: Json[] = [];
  for (;;) {
    const { results, count } = await dataOf(
      service().POST('/object-storage/classes/query/{tableName}', {
        params: { path: { tableName: table }, query: { count: '1', limit: PAGE, skip: rows.length, order } },
        body: where,
      }),
    );
    rows.push(...results);
    onProgress(rows.length, count ?? rows.length);
    if (results.length < PAGE || rows.length >= (count ?? 0)) return rows;
  }
}

/** Export a table's rows as CSV or JSON: those of the current query (its where and order), or all of them. */
export function ExportDialog({
  table,
  columns,
  where,
  order,
  matching,
  filtered,
  onClose,
}: {
  table: string;
  columns: ColumnDefinition[];
  where: Json;
  order: string;
  /** Rows the current query matches, and whether it has a where. */
  matching: number;
  filtered: boolean;
  onClose: () => void;
}) {
  const [format, setFormat] = useState<'csv' | 'json'>('csv');
  const [scope, setScope] = useState<'query' | 'all'>(filtered ? 'query' : 'all');
  const [progress, setProgress] = useState('');
  const action = useAction();
  const run = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const rows = await readAll(
        table,
        scope === 'query' ? where : {},
        (scope === 'query' && order) || undefined,
        (read, total) => setProgress(`Read ${read.toLocaleString('en')} of ${total.toLocaleString('en')} rows…`),
      );
      const text = format === 'csv' ? toCsvFile(columns, rows) : toJsonFile(table, columns, rows);
      saveFile(
        new Blob([text], { type: format === 'csv' ? 'text/csv' : 'application/json' }),
        `${table}-${fileTime()}.${format}`,
      );
      setProgress('');
      return `Exported ${rows.length.toLocaleString('en')} rows as ${format.toUpperCase()}.`;
    });
  };
  return (
    <Dialog title={`Export rows of ${table}`} onClose={onClose}>
      <form onSubmit={run}>
        <fieldset>
          <legend>Format</legend>
          <label class="check">
            <input type="radio" name="format" checked={format === 'csv'} onChange={() => setFormat('csv')} /> CSV, for
            spreadsheets (an empty field is no value)
          </label>
          <label class="check">
            <input type="radio" name="format" checked={format === 'json'} onChange={() => setFormat('json')} /> JSON,
            every value as the service shows it, with the column types
          </label>
        </fieldset>
        <fieldset>
          <legend>Rows</legend>
          <label class="check">
            <input type="radio" name="scope" checked={scope === 'query'} onChange={() => setScope('query')} /> The
            current query: {matching.toLocaleString('en')} rows{filtered ? ', filtered' : ''}
            {order ? `, ordered by ${order}` : ''}
          </label>
          <label class="check">
            <input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} /> All rows of{' '}
            {table}
          </label>
        </fieldset>
        <button type="submit" disabled={action.busy}>
          Export
        </button>
        <Status error={action.error}>{action.busy ? progress : action.message}</Status>
      </form>
    </Dialog>
  );
}
