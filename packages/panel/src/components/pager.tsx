/** Previous / next page buttons; `page` counts from 0, `hasNext` when the last answer was a full page. */
export function Pager({
  page,
  hasNext,
  onPage,
  label,
}: {
  page: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  label: string;
}) {
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>Page {page + 1}</span>
      <button type="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
