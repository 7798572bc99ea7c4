// The detail of a cell, beside it: a value's whole JSON, or a row that a pointer names (read when opened) or that
// `include` brought (shown as it came).
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { dataOf, service } from '../../api.js';
import { JsonView } from '../../components/json-view.js';
import { Popover } from '../../components/popover.js';
import { Status } from '../../components/status.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { oneLine } from './one-line.js';
import { rowParams } from './tables.js';

type Json = Record<string, unknown>;

export type Detail =
  | { kind: 'value'; title: string; value: unknown }
  | { kind: 'row'; className: string; id: string; row?: Json };

/** A popover with one detail at a time, and the function that opens it beside an element. */
export function useDetails() {
  const [open, setOpen] = useState<{ detail: Detail; anchor: HTMLElement }>();
  const show = (detail: Detail, anchor: HTMLElement) => setOpen({ detail, anchor });
  const popover = open && (
    <Popover
      anchor={open.anchor}
      wide
      label={open.detail.kind === 'value' ? open.detail.title : `${open.detail.className} row ${open.detail.id}`}
      onClose={() => setOpen(undefined)}
    >
      {open.detail.kind === 'value' ? (
        <>
          <h3>{open.detail.title}</h3>
          <JsonView value={open.detail.value} label={open.detail.title} />
        </>
      ) : (
        <RowPreview {...open.detail} />
      )}
    </Popover>
  );
  return { popover, show };
}

function RowPreview({ className, id, row }: { className: string; id: string; row?: Json }) {
  const loaded = useLoad(
    () =>
      row
        ? Promise.resolve(row)
        : dataOf(service().GET('/object-storage/classes/{tableName}/{objectId}', rowParams(className, id))),
    [className, id],
  );
  return (
    <>
      <h3>
        {className} row <code>{id}</code>
        {row && ' (included)'}
      </h3>
      <Status error={loaded.error}>{loaded.loading ? 'Loading…' : ''}</Status>
      {loaded.data && (
        <dl class="facts">
          {Object.entries(loaded.data).map(([name, value]) => (
            <Fragment key={name}>
              <dt>{name}</dt>
              <dd>{oneLine(value)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      <p>
        <a href={href('database', className, id)}>Open the row</a>
      </p>
    </>
  );
}
