import { useState } from 'preact/hooks';

const SIZES = [20, 50, 100, 250, 500, 1000];

/**
 * Paging of a long list: the rows shown and the total, first, previous, a page to jump to, next, last, and how many
 * rows a page holds. `skip` and `limit` as a query takes them.
 */
export function PageControls({
  label,
  skip,
  limit,
  total,
  onPage,
}: {
  label: string;
  skip: number;
  limit: number;
  total: number;
  onPage: (page: { skip: number; limit: number }) => void;
}) {
  const page = Math.floor(skip / limit);
  const pages = Math.max(1, Math.ceil(total / limit));
  const [typed, setTyped] = useState<string>();
  const go = (to: number) => onPage({ skip: Math.max(0, Math.min(pages - 1, to)) * limit, limit });
  return (
    <nav class="page-controls" aria-label={label}>
      <button type="button" disabled={page === 0} onClick={() => go(0)} aria-label="First page">
        «
      </button>
      <button type="button" disabled={page === 0} onClick={() => go(page - 1)}>
        Previous
      </button>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed !== undefined) go(Number(typed) - 1);
          setTyped(undefined);
        }}
      >
        <label>
          Page{' '}
          <input
            type="number"
            min={1}
            max={pages}
            value={typed ?? String(page + 1)}
            onInput={(e) => setTyped(e.currentTarget.value)}
            onBlur={() => setTyped(undefined)}
          />
        </label>{' '}
        of {pages.toLocaleString('en')}
      </form>
      <button type="button" disabled={page >= pages - 1} onClick={() => go(page + 1)}>
        Next
      </button>
      <button type="button" disabled={page >= pages - 1} onClick={() => go(pages - 1)} aria-label="Last page">
        »
      </button>
      <label>
        Rows a page{' '}
        <select
          value={String(limit)}
          onChange={(e) => {
            // The first row shown stays on the page shown.
            const size = Number(e.currentTarget.value);
            onPage({ skip: Math.floor(skip / size) * size, limit: size });
          }}
        >
          {(SIZES.includes(limit) ? SIZES : [...SIZES, limit].sort((a, b) => a - b)).map((size) => (
            <option key={size} value={String(size)}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
