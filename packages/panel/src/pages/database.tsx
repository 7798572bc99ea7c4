// The database page: the tables with their row counts and column types, a table's rows in a data grid over the spec's
// query language (all of it in the URL), and one row to read, edit, delete or follow pointers from. Its modules and
// styles are a chunk of their own, loaded with the page (vite.config.ts).
import { useState } from 'preact/hooks';
import { DataTable } from '../components/data-table.js';
import { Field } from '../components/field.js';
import { Status } from '../components/status.js';
import { href, navigate } from '../router.js';
import { useLoad } from '../use-load.js';
import type { PageProps } from './page-props.js';
import { RowView } from './database/row-view.js';
import { TableView } from './database/table-view.js';
import './database/database.css';
import { loadTables, type TableSummary } from './database/tables.js';

export default function DatabasePage({ params: [table, id] }: PageProps) {
  const tables = useLoad(loadTables, []);
  if (!table) return <TableList tables={tables.data} error={tables.error} />;
  return (
    <div class="database">
      <nav aria-label="Breadcrumb" class="toolbar">
        <a href={href('database')}>All tables</a>›<a href={href('database', table)}>{table}</a>
      </nav>
      {id ? (
        <RowView key={`${table}/${id}`} table={table} id={id} tables={tables.data} onChanged={tables.reload} />
      ) : (
        // Keyed by table: its layout, selection and dialogs are its own.
        <TableView key={table} table={table} tables={tables.data} onChanged={tables.reload} />
      )}
    </div>
  );
}

const describeColumns = (table: TableSummary) =>
  table.columns.map((c) => `${c.name}: ${c.type}${c.targetClass ? `<${c.targetClass}>` : ''}`).join(', ');

function TableList({ tables, error }: { tables: TableSummary[] | undefined; error: unknown }) {
  const [name, setName] = useState('');
  return (
    <div class="database">
      <Status error={error}>{tables ? `${tables.length} table${tables.length === 1 ? '' : 's'}.` : 'Loading…'}</Status>
      <DataTable
        caption="Tables"
        columns={[
          { title: 'Table', cell: (t) => <a href={href('database', t.name)}>{t.name}</a> },
          { title: 'Rows', cell: (t) => t.rowCount },
          { title: 'Columns', cell: describeColumns },
        ]}
        rows={tables ?? []}
        rowKey={(t) => t.name}
        empty="No tables yet: a table is created by its first row."
      />
      <form
        class="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim()) navigate(href('database', name.trim()));
        }}
      >
        <Field label="Table name" hint="open a table, or name a new one and create its first row">
          {(fieldId) => <input id={fieldId} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Open table</button>
      </form>
    </div>
  );
}
