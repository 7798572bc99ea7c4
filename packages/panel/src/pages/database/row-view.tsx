import { useMemo, useState } from 'preact/hooks';
import { dataOf, service } from '../../api.js';
import { CopyButton } from '../../components/copy-button.js';
import { DataTable } from '../../components/data-table.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { JsonView } from '../../components/json-view.js';
import { Status } from '../../components/status.js';
import { href, navigate } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { Cell } from './cell.js';
import { useDetails } from './details.js';
import { usePointerLabels } from './labels.js';
import { RowEditor } from './row-editor.js';
import { columnType, rowParams, type TableViewProps } from './tables.js';

/**
 * One row (`/database/<table>/<objectId>`): its columns (pointers by the rows they name, links to follow), its JSON;
 * edit (the editor in place of them, so each column shows once) and delete.
 */
export function RowView({ table, id, tables, onChanged }: TableViewProps & { id: string }) {
  const row = useLoad(
    () => dataOf(service().GET('/object-storage/classes/{tableName}/{objectId}', rowParams(table, id))),
    [table, id],
  );
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const shownRows = useMemo(() => row.data && [row.data], [row.data]);
  const labels = usePointerLabels(shownRows, tables);
  const details = useDetails();
  const columns = tables?.find((t) => t.name === table)?.columns ?? [];
  const [result, setResult] = useState<{ message?: string; error?: unknown }>({});

  const remove = async () => {
    try {
      await dataOf(service().DELETE('/object-storage/classes/{tableName}/{objectId}', rowParams(table, id)));
      onChanged();
      navigate(href('database', table));
    } catch (error) {
      setDeleting(false);
      setResult({ error });
    }
  };

  const data = row.data;
  return (
    <>
      <h2>
        Row <code>{id}</code>
      </h2>
      <Status error={row.error ?? result.error}>{result.message}</Status>
      {data && (
        <>
          <div class="toolbar">
            <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
              Edit row
            </button>
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete row
            </button>
            <CopyButton text={JSON.stringify(data, null, 2)} label="Copy as JSON" />
          </div>
          {editing ? (
            <RowEditor
              key={String(data['updatedAt'])}
              table={table}
              columns={columns}
              row={data}
              onSaved={() => {
                setEditing(false);
                setResult({ message: 'Saved.' });
                onChanged();
                row.reload();
              }}
            />
          ) : (
            <>
              <DataTable
                caption="Columns"
                columns={[
                  { title: 'Column', cell: ([name]) => name },
                  {
                    title: 'Value',
                    cell: ([name, value]) => (
                      <Cell
                        value={value}
                        context={{
                          table,
                          rowId: id,
                          column: name,
                          type: columnType(tables, table, name)?.type,
                          labels,
                          show: details.show,
                        }}
                      />
                    ),
                  },
                ]}
                rows={Object.entries(data)}
                rowKey={([name]) => name}
              />
              <h3>JSON</h3>
              <JsonView value={data} label="The row's JSON" />
            </>
          )}
        </>
      )}
      {details.popover}
      {deleting && (
        <ConfirmDialog
          title="Delete this row?"
          confirmLabel="Delete"
          onConfirm={remove}
          onCancel={() => setDeleting(false)}
        >
          <p>
            Row <code>{id}</code> of {table} is deleted for good.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
