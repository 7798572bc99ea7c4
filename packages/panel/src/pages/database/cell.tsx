// A column value in one line of the grid (and of a row's page): text as is, dates as ISO 8601 UTC, pointers by the
// display column of the row they point to (a button previews that row), included rows by their own columns, relations
// by their first members and a link to all of them, an ACL by its entries (a user by username), objects and arrays as
// one line of JSON that a button expands.
import { UserLink } from '../../components/user-link.js';
import { href } from '../../router.js';
import type { Detail } from './details.js';
import { RELATION_LABELS, isIncluded, isPointer, pointerKey, type Labels } from './labels.js';
import { oneLine } from './one-line.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a cell is: what its buttons name, and how they show a detail. */
export interface CellContext {
  table: string;
  rowId: string;
  column: string;
  /** The column's type in the table's schema, if known. */
  type: string | undefined;
  labels: Labels;
  show: (detail: Detail, anchor: HTMLElement) => void;
}

/** The row a pointer names, by its label (the row id until labels come; marked when the row does not exist). */
function PointerLink({ pointer, labels }: { pointer: Json; labels: Labels }) {
  const { className, _id: id } = pointer;
  const label = labels.get(pointerKey(className, id));
  return (
    <a
      href={href('database', String(className), String(id))}
      class={label === null ? 'dangling' : undefined}
      title={
        label === null ? `${String(className)} has no row ${String(id)}` : `${String(className)} row ${String(id)}`
      }
    >
      {label ?? String(id)}
    </a>
  );
}

function PreviewButton({ label, detail, show }: { label: string; detail: Detail; show: CellContext['show'] }) {
  return (
    <button type="button" class="peek" aria-label={label} onClick={(e) => show(detail, e.currentTarget)}>
      ⋯
    </button>
  );
}

export function Cell({ value, context }: { value: unknown; context: CellContext }) {
  const { labels, show } = context;
  if (value === undefined) return null;
  if (value === null) return <span class="muted">null</span>;
  if (isPointer(value)) {
    const target = `${String(value['className'])} row ${String(value['_id'])}`;
    return (
      <span class="ref">
        <PointerLink pointer={value} labels={labels} />
        <PreviewButton
          label={`Preview ${target}`}
          detail={{ kind: 'row', className: String(value['className']), id: String(value['_id']) }}
          show={show}
        />
      </span>
    );
  }
  if (isIncluded(value)) return <IncludedRow row={value} context={context} />;
  if (Array.isArray(value) && value.length > 0 && value.every(isPointer))
    return <Pointers list={value} context={context} />;
  if (context.type === 'Relation' && Array.isArray(value)) return <span class="muted">none</span>;
  if (typeof value === 'object' && !(isObject(value) && value['__type'] === 'Date')) {
    return (
      <span class="ref">
        {context.column === 'ACL' && isObject(value) ? (
          <AclEntries acl={value} />
        ) : (
          <code class="json-line">{oneLine(value)}</code>
        )}
        <PreviewButton
          label={`Expand ${context.column} of row ${context.rowId}`}
          detail={{ kind: 'value', title: `${context.column} of row ${context.rowId}`, value }}
          show={show}
        />
      </span>
    );
  }
  return <span class={typeof value === 'string' ? undefined : 'mono'}>{oneLine(value)}</span>;
}

/** A pointer expanded by `include`: the row itself came with the answer, so its label and preview need no call. */
function IncludedRow({ row, context }: { row: Json; context: CellContext }) {
  const className = String(row['className']);
  const id = String(row['_id']);
  const { __type: _, className: __, ...columns } = row;
  return (
    <span class="ref">
      <span class="included" title={`${className} row ${id}, included`}>
        <a href={href('database', className, id)}>{context.labels.get(pointerKey(className, id)) ?? id}</a>
      </span>
      <PreviewButton
        label={`Show the included ${className} row ${id}`}
        detail={{ kind: 'row', className, id, row: columns }}
        show={context.show}
      />
    </span>
  );
}

/** A relation (or an array of pointers): how many, the first few by label, and a link to all of them. */
function Pointers({ list, context }: { list: Json[]; context: CellContext }) {
  const className = String(list[0]!['className']);
  const related = {
    $relatedTo: { object: { __type: 'Pointer', className: context.table, _id: context.rowId }, key: context.column },
  };
  const all = `${href('database', className)}?${new URLSearchParams({ where: JSON.stringify(related) })}`;
  return (
    <span class="ref">
      {context.type === 'Relation' ? (
        <a href={all} title={`The ${className} rows related through ${context.column}`}>
          {list.length} {className}
        </a>
      ) : (
        <span>{list.length}:</span>
      )}{' '}
      {list.slice(0, RELATION_LABELS).map((pointer, i) => (
        <span key={i}>
          {i > 0 && ', '}
          <PointerLink pointer={pointer} labels={context.labels} />
        </span>
      ))}
      {list.length > RELATION_LABELS && ' …'}
    </span>
  );
}

/** An ACL by its entries: everyone (`*`) or a user by username, and what each may do; no entry: the master token only. */
function AclEntries({ acl }: { acl: Json }) {
  const entries = Object.entries(acl);
  if (entries.length === 0) return <span class="muted">master only</span>;
  return (
    <span>
      {entries.map(([principal, rights], i) => (
        <span key={principal}>
          {i > 0 && '; '}
          {principal === '*' ? 'everyone' : <UserLink userId={principal} />}: {rightsOf(rights)}
        </span>
      ))}
    </span>
  );
}

const rightsOf = (rights: unknown): string => {
  const given = isObject(rights) ? rights : {};
  return [given['read'] === true && 'read', given['write'] === true && 'write'].filter(Boolean).join(', ') || 'nothing';
};
