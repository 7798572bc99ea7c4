import type { ComponentChildren } from 'preact';
import { Dialog } from './dialog.js';

/** Asks before a destructive action: `children` say what will go, `confirmLabel` names the action on its button. */
export function ConfirmDialog({
  title,
  confirmLabel,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  return (
    <Dialog title={title} onClose={onCancel}>
      {children}
      <div class="toolbar">
        <button type="button" class="danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
