import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** A labelled form control: `children` receives the id to put on the control, so the label names it. */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string) => ComponentChildren;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id)}
      {hint && <small class="hint">{hint}</small>}
    </div>
  );
}
