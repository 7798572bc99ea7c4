import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';

/**
 * A small window beside an element (the browser's own popover: on top of everything, closed by Escape or a click
 * elsewhere), for a value's detail or a quick edit. Shown while mounted; `onClose` runs when it closes, and focus goes
 * back to `anchor` when it was inside. The first field inside (else the popover) takes focus.
 */
export function Popover({
  anchor,
  label,
  onClose,
  children,
  wide = false,
}: {
  anchor: HTMLElement;
  label: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const popover = ref.current!;
    popover.showPopover();
    place(popover, anchor);
    const first = popover.querySelector<HTMLElement>('input, select, textarea, button:not(.popover-close)');
    (first ?? popover).focus();
    return () => {
      // Back to the anchor only from inside: Escape or a click elsewhere has already put focus where it goes, and keys
      // pressed before this ran (the toggle event comes a task later) may have moved it on.
      const focused = document.activeElement;
      const fromInside = focused === document.body || popover.contains(focused);
      if (popover.matches(':popover-open')) popover.hidePopover();
      if (fromInside && anchor.isConnected) anchor.focus();
    };
  }, [anchor]);
  return (
    <div
      ref={ref}
      popover="auto"
      role="dialog"
      aria-label={label}
      tabIndex={-1}
      class={wide ? 'popover wide' : 'popover'}
      onToggle={(event) => (event as ToggleEvent).newState === 'closed' && onClose()}
    >
      <button type="button" class="popover-close" aria-label="Close" onClick={onClose}>
        ×
      </button>
      {children}
    </div>
  );
}

/** Below the anchor (above it when there is no room), inside the window. */
function place(popover: HTMLElement, anchor: HTMLElement): void {
  const margin = 8;
  const box = anchor.getBoundingClientRect();
  const { offsetWidth: width, offsetHeight: height } = popover;
  const left = Math.max(margin, Math.min(box.left, innerWidth - width - margin));
  const below = box.bottom + 4;
  const top = below + height > innerHeight - margin ? Math.max(margin, box.top - height - 4) : below;
  popover.style.left = `${left}px`;
  popover.style.top = `${top}px`;
}
