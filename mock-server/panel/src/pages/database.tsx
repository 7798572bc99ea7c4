// The database page: the tables with their row counts and column types, a table's rows through the spec's query
// language (all of it in the URL), and one row to read, edit, delete or follow pointers from.
import { useState } from 'preact/hooks';
import { DataTable } from '../components/data-table.js';
import { Field } from '../components/field.js';
import { Status } from '../components/status.js';
import { href, navigate } from '../router.js';
import { useLoad } from '../use-load.js';
import type { PageProps } from './page-props.js';
import { RowView } from './database/row-view.js';
import { TableView } from './database/table-view.js';
import { loadTables, type TableSummary } from './database/tables.js';

export default function DatabasePage({ params: [table, id] }: PageProps) {
  const tables = useLoad(loadTables, []);
  if (!table) return <TableList tables={tables.data} error={tables.error} />;
  const columns = tables.data?.find((t) => t.name === table)?.columns ?? [];
  return (
    <>
      <nav aria-label="Breadcrumb" class="toolbar">
        <a href={href('database')}>All tables</a>›<a href={href('database', table)}>{table}</a>
      </nav>
      {id ? (
        <RowView table={table} id={id} columns={columns} onChanged={tables.reload} />
      ) : (
        <TableView table={table} columns={columns} onChanged={tables.reload} />
      )}
    </>
  );
}

const describeColumns = (table: TableSummary) =>
  table.columns.map((c) => `${c.name}: ${c.type}${c.targetClass ? `<${c.targetClass}>` : ''}`).join(', ');

function TableList({ tables, error }: { tables: TableSummary[] | undefined; error: unknown }) {
  const [name, setName] = useState('');
  return (
    <>
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
    </>
  );
}
