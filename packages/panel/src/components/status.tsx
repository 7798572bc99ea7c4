import type { ComponentChildren } from 'preact';

/**
 * The result of an async action, announced to screen readers (`aria-live`); an error shows the server's message
 * and code. Render it always (empty when there is nothing to say), so the live region exists before it changes.
 */
export function Status({ error, children }: { error?: unknown; children?: ComponentChildren }) {
  return (
    <p class={error ? 'status error' : 'status'} role="status" aria-live="polite">
      {error ? describe(error) : children}
    </p>
  );
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: number }).code;
    return code === undefined ? error.message : `${error.message} (code ${code})`;
  }
  return String(error);
}
