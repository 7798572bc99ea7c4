import { arranged, EMPTY_LAYOUT, moved, toggled, type GridLayout } from './layout.js';

/**
 * The grid's columns as a list: show or hide each, move it earlier or later (what dragging a header does, by
 * keyboard), or go back to the table's own layout.
 */
export function ColumnsMenu({
  columns,
  layout,
  onLayout,
}: {
  columns: { key: string; title: string }[];
  layout: GridLayout;
  onLayout: (layout: GridLayout) => void;
}) {
  const keys = columns.map((c) => c.key);
  const titles = new Map(columns.map((c) => [c.key, c.title]));
  const order = arranged(keys, layout);
  return (
    <div class="columns-menu">
      <ul>
        {order.map((key, i) => {
          const title = titles.get(key)!;
          return (
            <li key={key}>
              <label>
                <input
                  type="checkbox"
                  checked={!layout.hidden.includes(key)}
                  onChange={(e) => onLayout(toggled(layout, key, e.currentTarget.checked))}
                />{' '}
                {title}
              </label>
              <button
                type="button"
                aria-label={`Move ${title} earlier`}
                disabled={i === 0}
                onClick={() => onLayout(moved(layout, keys, key, -1))}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={`Move ${title} later`}
                disabled={i === order.length - 1}
                onClick={() => onLayout(moved(layout, keys, key, 1))}
              >
                ↓
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={() => onLayout(EMPTY_LAYOUT)}>
        Reset the columns
      </button>
    </div>
  );
}
