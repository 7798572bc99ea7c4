import type { ColumnDefinition } from '@basekit/sdk/admin';
import { ServiceError } from '@basekit/sdk/core';
import { useState } from 'preact/hooks';
import { admin } from '../../api.js';
import { Dialog } from '../../components/dialog.js';
import { FileField } from '../../components/file-field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { readCsvFile, readJsonFile, refusedLine, type ImportFile } from './transfer.js';

/**
 * Import rows into a table from a CSV or JSON file (as the export writes them, or any CSV with a header): every value
 * is checked by its column's type here, then every row by the server as a create, and a bad one stops the import
 * with its line; nothing is written unless every row is.
 */
export function ImportDialog({
  table,
  columns,
  onImported,
  onClose,
}: {
  table: string;
  columns: ColumnDefinition[];
  onImported: () => void;
  onClose: () => void;
}) {
  const [file, setFile] = useState<File>();
  const action = useAction();
  const run = (event: Event) => {
    event.preventDefault();
    if (!file) return;
    void action.run(async () => {
      const text = await file.text();
      const json = /\.json$/i.test(file.name) || file.type === 'application/json' || text.trimStart().startsWith('[');
      let read: ImportFile;
      try {
        read = json ? readJsonFile(text) : readCsvFile(text, columns);
      } catch (error) {
        throw new Error(`${file.name}, ${(error as Error).message}. Nothing was imported.`);
      }
      try {
        const imported = await admin().database.importRows(
          table,
          read.rows,
          read.columns ? { columns: read.columns } : {},
        );
        onImported();
        return `Imported ${imported.toLocaleString('en')} rows from ${file.name}.`;
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        const line = refusedLine(read, error.message);
        const where = line === undefined ? '' : `, line ${line}`;
        throw new Error(`${file.name}${where}: ${error.message.replace(/^row \d+: /, '')}. Nothing was imported.`);
      }
    });
  };
  return (
    <Dialog title={`Import rows into ${table}`} onClose={onClose}>
      <form onSubmit={run}>
        <p class="hint">
          A CSV file whose first line names the columns, or a JSON file: an array of rows, or an export of the panel.
          Rows keep their <code>_id</code> and timestamps when the file has them.
        </p>
        <FileField label="File (CSV or JSON)" accept=".csv,.json,text/csv,application/json" onFile={setFile} />
        <button type="submit" disabled={action.busy || !file}>
          Import
        </button>
        <Status error={action.error}>{action.busy ? 'Importing…' : action.message}</Status>
      </form>
    </Dialog>
  );
}
