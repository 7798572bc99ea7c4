import { href } from '../../router.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How long a text may be in a grid cell before it is cut (the row's page shows it whole). */
const CELL_CHARS = 60;

const cut = (text: string) => (text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text);

/** A link to the row a pointer (or an included row, `{__type: "Object", className, _id}`) names. */
function RowLink({ target }: { target: Json }) {
  const className = String(target['className']);
  const id = String(target['_id']);
  return (
    <a href={href('database', className, id)} aria-label={`Open ${className} row ${id}`}>
      {className}/{id}
    </a>
  );
}

/**
 * A column value in short: pointers and included rows as links to their row (follow a pointer), relations as links
 * to their first rows, dates as their timestamp, other values as (cut) JSON.
 */
export function Cell({ value }: { value: unknown }) {
  if (value === undefined) return null;
  if (isObject(value) && (value['__type'] === 'Pointer' || value['__type'] === 'Object'))
    return <RowLink target={value} />;
  if (isObject(value) && value['__type'] === 'Date') return <code>{String(value['iso'])}</code>;
  if (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((item) => isObject(item) && item['__type'] === 'Pointer')
  ) {
    return (
      <span>
        {value.slice(0, 3).map((item, i) => (
          <span key={i}>
            {i > 0 && ', '}
            <RowLink target={item as Json} />
          </span>
        ))}
        {value.length > 3 && ` and ${value.length - 3} more`}
      </span>
    );
  }
  return <code>{cut(typeof value === 'string' ? value : JSON.stringify(value))}</code>;
}
