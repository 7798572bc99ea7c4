// A table's rows (`/database/<table>?where=…&order=…&limit=…&skip=…`): the data grid over the service's query, with
// the filter builder, header sorting, paging with the total, columns laid out as the person likes (kept per table),
// cells edited in place, rows selected and deleted together, export and import, and the table's schema.
import { useMemo, useState } from 'preact/hooks';
import { dataOf, project, service } from '../../api.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { Field } from '../../components/field.js';
import { ColumnsMenu } from '../../components/grid/columns-menu.js';
import { DataGrid } from '../../components/grid/data-grid.js';
import { useGridLayout } from '../../components/grid/layout.js';
import { PageControls } from '../../components/grid/page-controls.js';
import { formatOrder, nextSort, parseOrder } from '../../components/grid/sort.js';
import { Status } from '../../components/status.js';
import { href, navigate, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { useDetails } from './details.js';
import { ExportDialog } from './export-dialog.js';
import { FilterBuilder } from './filter-builder.js';
import { gridColumns } from './grid-columns.js';
import { ImportDialog } from './import-dialog.js';
import { InlineEditor } from './inline-editor.js';
import { usePointerLabels } from './labels.js';
import { gridQueryValues, parseWhere, queryParams, readGridQuery, type GridQuery } from './query-params.js';
import { RowEditor } from './row-editor.js';
import { SchemaView } from './schema-view.js';
import { columnType, type TableViewProps } from './tables.js';

type Json = Record<string, unknown>;

/** Rows a batch request deletes at most (the service's batch limit). */
const BATCH = 50;

/** Deletes rows by id through the service's batch, 50 at a time; answers the messages of those that failed. */
async function deleteRows(table: string, ids: string[]): Promise<string[]> {
  const failures: string[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const chunk = ids.slice(i, i + BATCH);
    const results = await dataOf(
      service().POST('/object-storage/batch', {
        body: { requests: chunk.map((id) => ({ method: 'DELETE' as const, path: `/classes/${table}/${id}` })) },
      }),
    );
    results.forEach((result, j) => {
      if ('error' in result) failures.push(`${chunk[j]}: ${result.error.error}`);
    });
  }
  return failures;
}

/** A table's rows in the data grid, with the filter, paging, editing, export, import and schema (see above). */
export function TableView({ table, tables, onChanged }: TableViewProps) {
  const { query: search } = useRoute();
  const query = readGridQuery(search);
  const parsed = parseWhere(query.where);
  const rows = useLoad(
    () =>
      'error' in parsed
        ? Promise.reject(new Error(parsed.error))
        : dataOf(
            service().POST('/object-storage/classes/query/{tableName}', {
              params: { path: { tableName: table }, query: queryParams(query) },
              body: parsed.where,
            }),
          ),
    [table, search.toString()],
  );
  const columns = tables?.find((t) => t.name === table)?.columns ?? [];
  const [layout, setLayout] = useGridLayout(`${project().authenticationId}/${table}`);
  const [selection, setSelection] = useState<Set<string>>(new Set());
  const [open, setOpen] = useState<'new' | 'export' | 'import' | 'delete'>();
  const [editing, setEditing] = useState<{ row: Json; column: string; cell: HTMLElement }>();
  const [schemaShown, setSchemaShown] = useState(false);
  const action = useAction();
  const details = useDetails();
  const results = rows.data?.results;
  const labels = usePointerLabels(results, tables);
  const total = rows.data?.count ?? 0;
  const sort = parseOrder(query.order);
  const show = (values: Partial<GridQuery>) => setQuery(gridQueryValues({ ...query, ...values }));

  const gridRows = results ?? [];
  const columnList = useMemo(
    () => gridColumns(table, columns, query.keys, gridRows, { table, labels, show: details.show }),
    [table, columns, query.keys, gridRows, labels],
  );
  const changed = (message: string) => {
    setEditing(undefined);
    void action.run(async () => message);
    rows.reload();
    onChanged();
  };

  const removeSelected = () =>
    action.run(async () => {
      setOpen(undefined);
      const ids = [...selection];
      const failures = await deleteRows(table, ids);
      setSelection(new Set());
      rows.reload();
      onChanged();
      if (failures.length > 0)
        throw new Error(`Deleted ${ids.length - failures.length} rows; not deleted: ${failures.join('; ')}`);
      return `Deleted ${ids.length} row${ids.length === 1 ? '' : 's'}.`;
    });

  const conditions = Object.keys('where' in parsed ? parsed.where : {}).length;
  return (
    <>
      <details class="panel-section" open={conditions > 0}>
        <summary>Filter{conditions > 0 ? ` (${conditions} in the where)` : ''}</summary>
        <FilterBuilder
          key={`${table}:${query.where}`}
          table={table}
          tables={tables ?? []}
          where={query.where}
          onApply={(where) => show({ where, skip: 0 })}
        />
      </details>
      <details class="panel-section">
        <summary>Columns</summary>
        <ColumnsMenu columns={columnList} layout={layout} onLayout={setLayout} />
      </details>
      <details class="panel-section">
        <summary>Query parameters</summary>
        <QueryForm
          query={query}
          columns={columns.filter((c) => c.type === 'Pointer').map((c) => c.name)}
          onRun={show}
        />
      </details>
      <details class="panel-section" onToggle={(e) => setSchemaShown(e.currentTarget.open)}>
        <summary>Schema</summary>
        {/* Read when opened: counting values visits every row of the table. */}
        {schemaShown && <SchemaView table={table} tables={tables} onChanged={onChanged} />}
      </details>
      <div class="toolbar">
        <button
          type="button"
          onClick={() => setOpen(open === 'new' ? undefined : 'new')}
          aria-expanded={open === 'new'}
        >
          New row
        </button>
        <button type="button" onClick={() => setOpen('export')}>
          Export…
        </button>
        <button type="button" onClick={() => setOpen('import')}>
          Import…
        </button>
        <button type="button" class="danger" disabled={selection.size === 0} onClick={() => setOpen('delete')}>
          Delete {selection.size > 0 ? selection.size : ''} selected
        </button>
      </div>
      {open === 'new' && (
        <section aria-label="New row">
          <h2>New row</h2>
          <RowEditor
            table={table}
            columns={columns}
            onSaved={(id) => {
              onChanged();
              navigate(href('database', table, id));
            }}
          />
        </section>
      )}
      <Status error={rows.error ?? action.error}>
        {rows.loading
          ? 'Loading…'
          : rows.data &&
            (total === 0
              ? 'No matching rows.'
              : `Rows ${(query.skip + 1).toLocaleString('en')}–${(query.skip + gridRows.length).toLocaleString('en')} of ${total.toLocaleString('en')}.`)}
        {action.message && ` ${action.message}`}
      </Status>
      <DataGrid
        label={`Rows of ${table}`}
        columns={columnList}
        rows={gridRows}
        rowKey={(row) => String(row['_id'])}
        layout={layout}
        onLayout={setLayout}
        sort={sort}
        onSort={(column, adding) => show({ order: formatOrder(nextSort(sort, column, adding)), skip: 0 })}
        selection={selection}
        onSelection={setSelection}
        onEdit={(row, column, cell) => setEditing({ row, column, cell })}
        offset={query.skip}
        empty={rows.loading ? 'Loading…' : 'No rows.'}
      />
      <PageControls
        label="Paging of rows"
        skip={query.skip}
        limit={query.limit}
        total={total}
        onPage={({ skip, limit }) => show({ skip, limit })}
      />
      {details.popover}
      {editing && (
        <InlineEditor
          table={table}
          row={editing.row}
          column={editing.column}
          type={columnType(tables, table, editing.column)}
          anchor={editing.cell}
          onSaved={changed}
          onClose={() => setEditing(undefined)}
        />
      )}
      {open === 'export' && (
        <ExportDialog
          table={table}
          columns={columns}
          where={'where' in parsed ? parsed.where : {}}
          order={query.order}
          matching={total}
          filtered={conditions > 0}
          onClose={() => setOpen(undefined)}
        />
      )}
      {open === 'import' && (
        <ImportDialog
          table={table}
          columns={columns}
          onImported={() => {
            rows.reload();
            onChanged();
          }}
          onClose={() => setOpen(undefined)}
        />
      )}
      {open === 'delete' && (
        <ConfirmDialog
          title={`Delete ${selection.size} row${selection.size === 1 ? '' : 's'} of ${table}?`}
          confirmLabel={`Delete ${selection.size} row${selection.size === 1 ? '' : 's'}`}
          onConfirm={removeSelected}
          onCancel={() => setOpen(undefined)}
        >
          <p>
            {[...selection].slice(0, 10).join(', ')}
            {selection.size > 10 && ` and ${selection.size - 10} more`} are deleted for good, with their relations.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** The query's other parameters as the service takes them (the contract's `queryRows`): order, keys, include. */
function QueryForm({
  query,
  columns,
  onRun,
}: {
  query: GridQuery;
  columns: string[];
  onRun: (values: Partial<GridQuery>) => void;
}) {
  const run = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '');
    onRun({ order: text('order'), keys: text('keys'), include: text('include'), skip: 0 });
  };
  return (
    <form
      class="toolbar"
      onSubmit={run}
      key={`${query.order}|${query.keys}|${query.include}`}
      aria-label="Query parameters"
    >
      <Field label="Order" hint="columns, -column for descending">
        {(id) => <input id={id} name="order" defaultValue={query.order} />}
      </Field>
      <Field label="Keys" hint="the columns to read, all if empty">
        {(id) => <input id={id} name="keys" defaultValue={query.keys} />}
      </Field>
      <Field label="Include" hint={columns.length > 0 ? `pointer columns: ${columns.join(', ')}` : 'pointer columns'}>
        {(id) => <input id={id} name="include" defaultValue={query.include} />}
      </Field>
      <button type="submit">Run query</button>
    </form>
  );
}
