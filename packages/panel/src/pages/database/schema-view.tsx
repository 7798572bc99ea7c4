import type { TableSchema } from '@basekit/sdk/admin';
import { useState } from 'preact/hooks';
import { admin } from '../../api.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { Dialog } from '../../components/dialog.js';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { href, navigate } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { chooseDisplayColumn, displayColumn } from './labels.js';
import type { TableViewProps } from './tables.js';

type Column = TableSchema['columns'][number];

const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;
const typeName = (c: { type: string; targetClass?: string }) =>
  c.targetClass ? `${c.type}<${c.targetClass}>` : c.type;

/**
 * A table's schema (`GET /__admin/database/tables/{table}`): each column's type and how many rows hold a value, the
 * columns of other tables that point here, the column that names its rows in pointers; rename or drop a column and
 * delete the table, each after a confirmation that says what goes.
 */
export function SchemaView({ table, tables, onChanged }: TableViewProps) {
  const schema = useLoad(() => admin().database.table(table), [table]);
  const action = useAction();
  const [asking, setAsking] = useState<{ kind: 'rename' | 'drop'; column: Column } | { kind: 'delete' }>();
  const [display, setDisplay] = useState(() => displayColumn(table, tables));
  const data = schema.data;

  /** Runs a change once its dialog closed: the outcome shows in the section's status. */
  const change = (work: () => Promise<string>) => {
    setAsking(undefined);
    void action.run(async () => {
      const message = await work();
      onChanged();
      schema.reload();
      return message;
    });
  };

  return (
    <section aria-labelledby="schema-heading" class="schema">
      <h3 id="schema-heading">Schema of {table}</h3>
      <Status error={schema.error ?? action.error}>
        {data
          ? `${count(data.rowCount, 'row')}, ${count(data.columns.length, 'column')} besides _id, createdAt, updatedAt and ACL. ${action.message}`
          : 'Loading…'}
      </Status>
      {data && (
        <>
          <DataTable
            caption={`Columns of ${table}`}
            columns={[
              { title: 'Column', cell: (c: Column) => c.name },
              { title: 'Type', cell: (c) => typeName(c) },
              { title: 'Rows with a value', cell: (c) => c.rowsWithValue.toLocaleString('en') },
              {
                title: 'Change',
                cell: (c) => (
                  <span class="toolbar">
                    <button type="button" onClick={() => setAsking({ kind: 'rename', column: c })}>
                      Rename {c.name}…
                    </button>
                    <button type="button" class="danger" onClick={() => setAsking({ kind: 'drop', column: c })}>
                      Drop {c.name}…
                    </button>
                  </span>
                ),
              },
            ]}
            rows={data.columns}
            rowKey={(c) => c.name}
            empty="No columns yet besides _id, createdAt, updatedAt and ACL."
          />
          <p>
            {data.referencedBy.length === 0
              ? 'No pointer or relation column points to this table.'
              : `Pointing here: ${data.referencedBy.map((r) => `${r.table}.${r.column} (${r.type}, ${count(r.rowsWithValue, 'row')})`).join(', ')}.`}
          </p>
          <div class="toolbar">
            <label>
              Pointers to {table} show{' '}
              <select
                value={display}
                onChange={(e) => {
                  chooseDisplayColumn(table, e.currentTarget.value);
                  setDisplay(e.currentTarget.value);
                  onChanged();
                }}
              >
                {[
                  '_id',
                  ...data.columns.filter((c) => c.type === 'String' || c.type === 'Number').map((c) => c.name),
                ].map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            </label>
            <button type="button" class="danger" onClick={() => setAsking({ kind: 'delete' })}>
              Delete table {table}…
            </button>
          </div>
        </>
      )}
      {asking?.kind === 'rename' && (
        <RenameDialog
          table={table}
          column={asking.column}
          onCancel={() => setAsking(undefined)}
          onRename={(name) =>
            change(async () => {
              await admin().database.renameColumn(table, asking.column.name, name);
              return `Column ${asking.column.name} is now ${name}.`;
            })
          }
        />
      )}
      {asking?.kind === 'drop' && (
        <ConfirmDialog
          title={`Drop column ${asking.column.name}?`}
          confirmLabel={`Drop ${asking.column.name}`}
          onCancel={() => setAsking(undefined)}
          onConfirm={() =>
            change(async () => {
              await admin().database.dropColumn(table, asking.column.name);
              return `Column ${asking.column.name} was dropped.`;
            })
          }
        >
          <p>
            The {typeName(asking.column)} values of {count(asking.column.rowsWithValue, 'row')} of {table} are deleted
            for good, and the column with them.
          </p>
        </ConfirmDialog>
      )}
      {asking?.kind === 'delete' && data && (
        <ConfirmDialog
          title={`Delete table ${table}?`}
          confirmLabel={`Delete table ${table}`}
          onCancel={() => setAsking(undefined)}
          onConfirm={() =>
            change(async () => {
              await admin().database.deleteTable(table);
              navigate(href('database'));
              return `Table ${table} was deleted.`;
            })
          }
        >
          <p>
            Its {count(data.rowCount, 'row')} and {count(data.columns.length, 'column')}
            {data.columns.length > 0 && ` (${data.columns.map((c) => c.name).join(', ')})`} are deleted for good.
          </p>
          {data.referencedBy.length > 0 && (
            <p>
              {data.referencedBy.map((r) => `${r.table}.${r.column}`).join(', ')} will point to rows that no longer
              exist.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

function RenameDialog({
  table,
  column,
  onRename,
  onCancel,
}: {
  table: string;
  column: Column;
  onRename: (name: string) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(column.name);
  return (
    <Dialog title={`Rename column ${column.name}?`} onClose={onCancel}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() && name.trim() !== column.name) onRename(name.trim());
        }}
      >
        <InputField label="New name" value={name} onValue={setName} />
        <p>
          The values of {count(column.rowsWithValue, 'row')} of {table} move to the new name. Apps, queries and saved
          links that name {column.name} will no longer find it.
        </p>
        <div class="toolbar">
          <button type="submit">Rename</button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
