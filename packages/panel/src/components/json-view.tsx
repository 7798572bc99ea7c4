/** A JSON value, pretty-printed, in a labelled, scrollable and focusable block (keyboard users can scroll it). */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="json" role="region" tabIndex={0} aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
