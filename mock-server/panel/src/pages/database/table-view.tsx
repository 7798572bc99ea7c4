import { useState } from 'preact/hooks';
import { dataOf, service } from '../../api.js';
import { DataTable, type Column } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { Pager } from '../../components/pager.js';
import { Status } from '../../components/status.js';
import { href, navigate, setQuery, useRoute } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { Cell } from './cell.js';
import { gridQueryValues, parseWhere, queryParams, readGridQuery, type GridQuery } from './query-params.js';
import { RowEditor } from './row-editor.js';
import { SYSTEM_COLUMNS, type TableColumn } from './tables.js';

type Json = Record<string, unknown>;

// Every row has these; the grid shows them around the table's own columns.
const ROW_COLUMNS = [...SYSTEM_COLUMNS, 'ACL'];

/** The grid's columns: `keys` when given, else the table's and any other the rows have; then the system columns. */
function gridColumns(table: string, columns: TableColumn[], query: GridQuery, rows: Json[]): Column<Json>[] {
  const keys = query.keys.trim();
  const names = keys ? keys.split(',').map((key) => key.trim()) : columns.map((c) => c.name);
  if (!keys) for (const row of rows) for (const name of Object.keys(row)) if (!names.includes(name)) names.push(name);
  const typeOf = (name: string) => columns.find((c) => c.name === name)?.type;
  return [
    { title: '_id', cell: (row) => <a href={href('database', table, String(row['_id']))}>{String(row['_id'])}</a> },
    ...[...names.filter((name) => !ROW_COLUMNS.includes(name)), ...ROW_COLUMNS.slice(1)].map((name) => ({
      title: typeOf(name) ? `${name} (${typeOf(name)})` : name,
      cell: (row: Json) => <Cell value={row[name]} />,
    })),
  ];
}

/** The rows of a table with the spec's query language, every part of the query in the URL; and a new row. */
export function TableView({
  table,
  columns,
  onChanged,
}: {
  table: string;
  columns: TableColumn[];
  onChanged: () => void;
}) {
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
  const [creating, setCreating] = useState(false);

  const run = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '');
    setQuery(
      gridQueryValues({
        where: text('where'),
        order: text('order'),
        keys: text('keys'),
        include: text('include'),
        limit: Number(text('limit')) || query.limit,
        skip: 0,
      }),
    );
  };

  const results = rows.data?.results ?? [];
  const count = rows.data?.count ?? 0;
  return (
    <>
      <form class="query" onSubmit={run} key={search.toString()} aria-label="Query">
        <Field label="Where" hint='JSON, e.g. {"score": {"$gte": 10}}'>
          {(id) => <textarea id={id} name="where" rows={2} class="mono" defaultValue={query.where} />}
        </Field>
        <div class="toolbar">
          <Field label="Order" hint="columns, -column for descending">
            {(id) => <input id={id} name="order" defaultValue={query.order} />}
          </Field>
          <Field label="Keys">{(id) => <input id={id} name="keys" defaultValue={query.keys} />}</Field>
          <Field label="Include">{(id) => <input id={id} name="include" defaultValue={query.include} />}</Field>
          <Field label="Limit">
            {(id) => <input id={id} name="limit" type="number" min={1} max={1000} defaultValue={String(query.limit)} />}
          </Field>
        </div>
        <div class="toolbar">
          <button type="submit">Run query</button>
          <button type="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
            New row
          </button>
        </div>
      </form>
      {creating && (
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
      <Status error={rows.error}>
        {rows.loading
          ? 'Loading…'
          : rows.data &&
            (count === 0 ? 'No matching rows.' : `Rows ${query.skip + 1}–${query.skip + results.length} of ${count}.`)}
      </Status>
      <DataTable
        caption={`Rows of ${table}`}
        columns={gridColumns(table, columns, query, results)}
        rows={results}
        rowKey={(row) => String(row['_id'])}
        empty="No rows."
      />
      <Pager
        label="Paging of rows"
        page={Math.floor(query.skip / query.limit)}
        hasNext={query.skip + results.length < count}
        onPage={(page) => setQuery(gridQueryValues({ ...query, skip: page * query.limit }))}
      />
    </>
  );
}
