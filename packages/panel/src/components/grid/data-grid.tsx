// A data grid in the manner of Parse Dashboard and Supabase Studio, for any list of records: headers that sort (Shift
// adds a column to the sort), columns resized, moved (drag a header, or the Columns menu) and hidden as the person
// likes (a `GridLayout`, kept by `useGridLayout`), rows selected, cells moved through with the arrow keys and edited
// with Enter, F2 or a double click. Rows are one line high and only those in view are rendered, so a page of 1,000
// rows shows as fast as one of 20. Sorting, filtering and paging are the caller's (the server's, usually).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import './grid.css';
import { arranged, movedBefore, type GridLayout } from './layout.js';
import type { SortKey } from './sort.js';
import { useRowWindow } from '../virtual-rows.js';

/** A column of the grid. */
export interface GridColumn<T> {
  /** Its name in the layout and the sort keys. */
  key: string;
  title: string;
  /** Shown after the title, smaller (a column's type). */
  note?: string;
  /** Width in CSS pixels until the person resizes it. */
  width: number;
  cell: (row: T) => ComponentChildren;
  /** A click on the header sorts by it (`onSort`). */
  sortable?: boolean;
  /** Enter, F2 or a double click on a cell edits it (`onEdit`). */
  editable?: boolean;
}

/** A cell of the grid: the position of its row among the rows, of its column among those shown. */
interface Cell {
  row: number;
  column: number;
}

/** Height of a row in CSS pixels (grid.css gives cells this height). */
const ROW_HEIGHT = 34;
const SELECT_WIDTH = 40;
const MIN_WIDTH = 48;
const MAX_WIDTH = 1200;
const DRAG_TYPE = 'application/x-grid-column';

const ORDINALS = ['', '', ' 2nd', ' 3rd'];
const ordinal = (n: number) => ORDINALS[n] ?? ` ${n}th`;

export interface DataGridProps<T> {
  /** The grid's accessible name ("Rows of Note"). */
  label: string;
  columns: GridColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  layout: GridLayout;
  onLayout: (layout: GridLayout) => void;
  sort?: SortKey[];
  /** A header clicked; `adding` when Shift was held. */
  onSort?: (column: string, adding: boolean) => void;
  /** The keys of the rows selected; without it, no row can be selected. */
  selection?: Set<string>;
  onSelection?: (selection: Set<string>) => void;
  onEdit?: (row: T, column: string, cell: HTMLElement) => void;
  /** The position of the first row in the whole list (paging), for screen readers. */
  offset?: number;
  empty?: ComponentChildren;
}

export function DataGrid<T>(props: DataGridProps<T>) {
  const { label, rows, rowKey, layout, onLayout, sort = [], selection, onSelection, onEdit, offset = 0 } = props;
  const byKey = new Map(props.columns.map((c) => [c.key, c]));
  const visible = arranged(
    props.columns.map((c) => c.key),
    layout,
  )
    .filter((key) => !layout.hidden.includes(key))
    .map((key) => byKey.get(key)!);
  const widthOf = (column: GridColumn<T>) => layout.widths[column.key] ?? column.width;
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const shown = useRowWindow(scroller, rows.length, ROW_HEIGHT);
  const [active, setShownActive] = useState({ row: 0, column: 0 });
  // Keys can come faster than renders: each is applied to the cell the keys before it reached (this ref), and a move
  // focuses its cell at once, so the next key's target is that cell, whatever was rendered meanwhile.
  const latest = useRef(active);
  const setActive = (cell: Cell) => {
    latest.current = cell;
    setShownActive(cell);
  };
  // A move or an edit that reached a row not rendered yet (far down a long page): finished once it is.
  const pending = useRef<'focus' | 'edit' | undefined>(undefined);
  const selectable = selection !== undefined && onSelection !== undefined;
  const lead = selectable ? 1 : 0;
  const cellId = (row: number, column: number) => `${row}:${column}`;
  const cellAt = ({ row, column }: Cell) =>
    scroller.current?.querySelector<HTMLElement>(`[data-cell="${cellId(row, column)}"]`) ?? null;

  /** Edits the active cell, or once it is rendered; false when it cannot be edited. */
  const editActive = (): boolean => {
    const { row, column } = latest.current;
    const edited = visible[column];
    if (!edited?.editable || !onEdit || !rows[row]) return false;
    const element = cellAt(latest.current);
    if (element) onEdit(rows[row]!, edited.key, element);
    else pending.current = 'edit';
    return true;
  };

  /** Makes `cell` the active cell now: scrolled into view and focused, or, not rendered yet, as soon as it is. */
  const moveTo = (cell: Cell) => {
    setActive(cell);
    const element = scroller.current!;
    const top = cell.row * ROW_HEIGHT;
    const header = element.querySelector('thead')?.offsetHeight ?? 0;
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + ROW_HEIGHT + header > element.scrollTop + element.clientHeight)
      element.scrollTop = top + ROW_HEIGHT + header - element.clientHeight;
    const target = cellAt(cell);
    if (target) {
      pending.current = undefined;
      target.focus();
    } else {
      // The rows hold focus meanwhile (the cell left may go as they scroll), so later keys still come here.
      pending.current = 'focus';
      body.current!.focus({ preventScroll: true });
    }
  };

  // A cell that keys reached before it was rendered: focus it (and open its editor) once it is, unless focus went
  // elsewhere meanwhile.
  useEffect(() => {
    const wanted = pending.current;
    const target = wanted && cellAt(latest.current);
    if (!target) return;
    pending.current = undefined;
    if (document.activeElement !== body.current) return;
    target.focus();
    if (wanted === 'edit') editActive();
  });

  const keys = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement;
    // A cell, or the rows while they wait for a cell to render; a link or button inside a cell has its keys.
    if (!target.dataset['cell'] && target !== body.current) return;
    // Keys after an Enter whose editor waits for its cell would have gone to that editor.
    if (pending.current === 'edit') return;
    const active = latest.current;
    const last = { row: rows.length - 1, column: visible.length - 1 };
    const page = Math.max(1, Math.floor((scroller.current!.clientHeight - ROW_HEIGHT) / ROW_HEIGHT));
    const moves: Record<string, () => Cell> = {
      ArrowDown: () => ({ ...active, row: Math.min(last.row, active.row + 1) }),
      ArrowUp: () => ({ ...active, row: Math.max(0, active.row - 1) }),
      ArrowRight: () => ({ ...active, column: Math.min(last.column, active.column + 1) }),
      ArrowLeft: () => ({ ...active, column: Math.max(0, active.column - 1) }),
      PageDown: () => ({ ...active, row: Math.min(last.row, active.row + page) }),
      PageUp: () => ({ ...active, row: Math.max(0, active.row - page) }),
      Home: () => (event.ctrlKey ? { row: 0, column: 0 } : { ...active, column: 0 }),
      End: () => (event.ctrlKey ? last : { ...active, column: last.column }),
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      moveTo(move());
    } else if (event.key === 'Enter' || event.key === 'F2') {
      if (editActive()) event.preventDefault();
    } else if (event.key === ' ' && selectable && rows[active.row]) {
      event.preventDefault();
      toggleRow(rowKey(rows[active.row]!));
    }
  };

  const toggleRow = (key: string) => {
    const next = new Set(selection);
    if (!next.delete(key)) next.add(key);
    onSelection!(next);
  };
  const allSelected = rows.length > 0 && rows.every((row) => selection?.has(rowKey(row)));
  const someSelected = rows.some((row) => selection?.has(rowKey(row)));

  const sortState = (column: string) => {
    const at = sort.findIndex((key) => key.column === column);
    return at === -1 ? undefined : { descending: sort[at]!.descending, position: at + 1, of: sort.length };
  };

  const width = visible.reduce((total, column) => total + widthOf(column), lead * SELECT_WIDTH);
  return (
    <div class="grid-scroll" ref={scroller}>
      <table
        class="grid"
        aria-label={label}
        aria-rowcount={rows.length + 1}
        aria-colcount={visible.length + lead}
        style={{ width: `${width}px` }}
      >
        <colgroup>
          {selectable && <col style={{ width: `${SELECT_WIDTH}px` }} />}
          {visible.map((column) => (
            <col key={column.key} style={{ width: `${widthOf(column)}px` }} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {selectable && (
              <th class="select" scope="col">
                <input
                  type="checkbox"
                  aria-label="Select every row shown"
                  checked={allSelected}
                  indeterminate={someSelected && !allSelected}
                  onChange={(e) =>
                    onSelection(
                      e.currentTarget.checked
                        ? new Set([...selection, ...rows.map(rowKey)])
                        : new Set([...selection].filter((key) => !rows.some((row) => rowKey(row) === key))),
                    )
                  }
                />
              </th>
            )}
            {visible.map((column) => (
              <HeaderCell
                key={column.key}
                column={column}
                sorted={sortState(column.key)}
                onSort={props.onSort}
                width={widthOf(column)}
                onWidth={(width) => onLayout({ ...layout, widths: { ...layout.widths, [column.key]: width } })}
                onDrop={(dragged) =>
                  dragged !== column.key &&
                  onLayout(
                    movedBefore(
                      layout,
                      props.columns.map((c) => c.key),
                      dragged,
                      column.key,
                    ),
                  )
                }
              />
            ))}
          </tr>
        </thead>
        <tbody
          ref={body}
          tabIndex={-1}
          onKeyDown={keys}
          onFocusIn={(event) => {
            const at = (event.target as HTMLElement).dataset['cell']?.split(':').map(Number);
            if (!at) return;
            // A cell focused (by the keys, or clicked) ends any wait for another.
            pending.current = undefined;
            const { row, column } = latest.current;
            if (at[0] !== row || at[1] !== column) setActive({ row: at[0]!, column: at[1]! });
          }}
          onDblClick={(event) => {
            const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-cell]');
            const [row, column] = cell?.dataset['cell']?.split(':').map(Number) ?? [];
            const edited = visible[column ?? -1];
            if (cell && edited?.editable && onEdit && rows[row!]) onEdit(rows[row!]!, edited.key, cell);
          }}
        >
          {rows.length === 0 && (
            <tr>
              <td class="grid-empty" colSpan={visible.length + lead}>
                {props.empty ?? 'Nothing here.'}
              </td>
            </tr>
          )}
          {shown.before > 0 && <tr class="grid-space" style={{ height: `${shown.before}px` }} />}
          {rows.slice(shown.start, shown.end).map((row, i) => {
            const index = shown.start + i;
            const key = rowKey(row);
            const selected = selection?.has(key) ?? false;
            return (
              <tr key={key} aria-rowindex={offset + index + 2} class={selected ? 'selected' : undefined}>
                {selectable && (
                  <td class="select">
                    <input
                      type="checkbox"
                      aria-label={`Select row ${key}`}
                      checked={selected}
                      onChange={() => toggleRow(key)}
                    />
                  </td>
                )}
                {visible.map((column, c) => (
                  <td
                    key={column.key}
                    data-cell={cellId(index, c)}
                    tabIndex={active.row === index && active.column === c ? 0 : -1}
                  >
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {shown.after > 0 && <tr class="grid-space" style={{ height: `${shown.after}px` }} />}
        </tbody>
      </table>
    </div>
  );
}

/** A column's header: its title (a button that sorts, when it can), the handle that resizes it; dragged to move it. */
function HeaderCell<T>({
  column,
  sorted,
  onSort,
  width,
  onWidth,
  onDrop,
}: {
  column: GridColumn<T>;
  sorted: { descending: boolean; position: number; of: number } | undefined;
  onSort: ((column: string, adding: boolean) => void) | undefined;
  width: number;
  onWidth: (width: number) => void;
  onDrop: (dragged: string) => void;
}) {
  const [dragWidth, setDragWidth] = useState<number>();
  const ref = useRef<HTMLTableCellElement>(null);
  const shownWidth = dragWidth ?? width;
  // The <col> follows a drag live; the layout is kept once the drag ends.
  useEffect(() => {
    const table = ref.current?.closest('table');
    const index = ref.current ? [...ref.current.parentElement!.children].indexOf(ref.current) : -1;
    const col = table?.querySelectorAll('col')[index];
    if (col && dragWidth !== undefined) col.style.width = `${dragWidth}px`;
  }, [dragWidth]);

  const startResize = (event: PointerEvent) => {
    event.preventDefault();
    event.stopPropagation();
    const handle = event.currentTarget as HTMLElement;
    handle.setPointerCapture(event.pointerId);
    const from = event.clientX;
    let last = width;
    const move = (e: PointerEvent) => {
      last = clampWidth(width + e.clientX - from);
      setDragWidth(last);
    };
    const end = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', end);
      handle.removeEventListener('pointercancel', end);
      setDragWidth(undefined);
      if (last !== width) onWidth(last);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', end);
    handle.addEventListener('pointercancel', end);
  };

  const direction = sorted && (sorted.descending ? 'descending' : 'ascending');
  const title = (
    <>
      <span class="grid-title">{column.title}</span>
      {column.note && <span class="grid-note"> {column.note}</span>}
      {sorted && (
        <span class="grid-sorted">
          <span aria-hidden="true">
            {sorted.descending ? ' ▼' : ' ▲'}
            {sorted.of > 1 ? sorted.position : ''}
          </span>
          <span class="visually-hidden">
            , sorted{ordinal(sorted.position)} {direction}
          </span>
        </span>
      )}
    </>
  );
  return (
    <th
      ref={ref}
      scope="col"
      aria-sort={sorted?.position === 1 ? direction : undefined}
      draggable
      title={`${column.title}${column.note ? ` (${column.note})` : ''}`}
      onDragStart={(event) => event.dataTransfer?.setData(DRAG_TYPE, column.key)}
      onDragOver={(event) => event.dataTransfer?.types.includes(DRAG_TYPE) && event.preventDefault()}
      onDrop={(event) => {
        const dragged = event.dataTransfer?.getData(DRAG_TYPE);
        if (dragged) {
          event.preventDefault();
          onDrop(dragged);
        }
      }}
    >
      <div class="grid-head">
        {column.sortable && onSort ? (
          <button type="button" class="grid-sort" onClick={(event) => onSort(column.key, event.shiftKey)}>
            {title}
          </button>
        ) : (
          <span class="grid-sort">{title}</span>
        )}
        <span
          class="grid-resize"
          role="separator"
          aria-orientation="vertical"
          aria-label={`Width of ${column.title}`}
          aria-valuenow={shownWidth}
          aria-valuemin={MIN_WIDTH}
          aria-valuemax={MAX_WIDTH}
          tabIndex={0}
          onPointerDown={startResize}
          onKeyDown={(event) => {
            const step = event.key === 'ArrowRight' ? 16 : event.key === 'ArrowLeft' ? -16 : 0;
            if (!step) return;
            event.preventDefault();
            onWidth(clampWidth(width + step));
          }}
        />
      </div>
    </th>
  );
}

const clampWidth = (width: number) => Math.round(Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, width)));
