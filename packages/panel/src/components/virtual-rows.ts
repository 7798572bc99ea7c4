import type { RefObject } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';

/** Rows rendered beyond each edge of the scrolled view, so a short scroll shows rows already there. */
const OVERSCAN = 10;

/** The rows of a scrolled list to render: those in view and a few around them, and the space the others take. */
export interface RowWindow {
  start: number;
  end: number;
  /** Pixels above the first rendered row and below the last. */
  before: number;
  after: number;
}

/**
 * Which of `count` rows of `rowHeight` pixels a scrolling element shows: a list of 1,000 rows renders about 40, so a
 * long list shows as fast as a short one (the data grid, the request inspector). Follows scrolling (once a frame) and
 * the element's size.
 */
export function useRowWindow(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number): RowWindow {
  const [view, setView] = useState({ top: 0, height: 800 });
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setView({ top: element.scrollTop, height: element.clientHeight || 800 });
    let frame = 0;
    const onScroll = () => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          measure();
        });
    };
    measure();
    element.addEventListener('scroll', onScroll, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('scroll', onScroll);
      resizes.disconnect();
    };
  }, []);
  const start = Math.max(0, Math.min(count, Math.floor(view.top / rowHeight) - OVERSCAN));
  const end = Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN);
  return { start, end, before: start * rowHeight, after: Math.max(0, count - end) * rowHeight };
}
