import { Component } from 'preact';
import { useRef } from 'preact/hooks';
import { useRowWindow } from '../../components/virtual-rows.js';
import { href } from '../../router.js';
import type { ExchangeSummary } from './model.js';

/** A row's height in pixels: one line (`.requests td` in styles.css), so the rows in view are known without measuring. */
const ROW_HEIGHT = 33;

/** `14:03:07.219`: the local time of day to the millisecond, enough to tell quick requests apart. */
function time(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

/** A request's status, and what a fault did to it (`injected`): answered in its place, dropped, or delayed. */
function StatusCell({ row }: { row: ExchangeSummary }) {
  const { injected } = row;
  const shown = injected?.kind === 'reset' ? 'dropped' : String(row.status);
  return (
    <>
      <span class={`http-status s${String(row.status)[0]}`}>{shown}</span>
      {injected && (
        <span class="injected" title={`fault ${injected.faultId}`}>
          {' '}
          {injected.kind === 'delay' ? `delayed ${injected.delayMs} ms` : 'injected'} ({injected.faultId})
        </span>
      )}
    </>
  );
}

/**
 * One request's cells. A summary never changes once answered, so they render once: with new rows arriving many times
 * a second, the list's work is the new rows only.
 */
class Cells extends Component<{ row: ExchangeSummary }> {
  override shouldComponentUpdate(next: { row: ExchangeSummary }): boolean {
    return next.row !== this.props.row;
  }

  override render({ row }: { row: ExchangeSummary }) {
    const { caller } = row;
    return (
      <>
        <td>
          <time dateTime={row.time}>{time(row.time)}</time>
        </td>
        <td>{row.method}</td>
        <td class="requests-path">
          <a href={href('requests', row.id)} title={row.path}>
            {row.path}
          </a>
        </td>
        <td>
          <StatusCell row={row} />
        </td>
        <td class="requests-duration">{row.durationMs} ms</td>
        <td>
          {caller.kind === 'user' ? (
            <a href={href('users', caller.userId)} title={`user id ${caller.userId}`}>
              {caller.username ?? caller.userId}
            </a>
          ) : (
            caller.kind
          )}
        </td>
        <td>{row.area}</td>
      </>
    );
  }
}

const COLUMNS = ['Time', 'Method', 'Path', 'Status', 'Duration', 'Caller', 'Area'];

/**
 * The requests, newest first: a table named by `name` (shown above it), a row per request, scrolling in a box of
 * its own where only the rows in view are rendered. `onReading` hears whether the person is reading (the list scrolled away
 * from its top, or the focus in it), which the list uses to hold new rows that would move what they read.
 */
export function RequestTable(props: {
  name: string;
  rows: ExchangeSummary[];
  empty: string;
  onReading: (reading: boolean) => void;
}) {
  const { rows } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useRowWindow(scroller, rows.length, ROW_HEIGHT);
  const reading = useRef(false);
  const report = (focused = scroller.current!.contains(document.activeElement)) => {
    const now = scroller.current!.scrollTop >= 1 || focused;
    if (now !== reading.current) props.onReading((reading.current = now));
  };
  return (
    <>
      <p id="requests-name">
        <strong>{props.name}</strong>
      </p>
      <div
        class="table-scroll requests-scroll"
        ref={scroller}
        onScroll={() => report()}
        onFocusIn={() => report(true)}
        onFocusOut={(event) => report(scroller.current!.contains(event.relatedTarget as Node | null))}
      >
        <table class="requests" aria-labelledby="requests-name" aria-rowcount={rows.length + 1}>
          <thead>
            <tr aria-rowindex={1}>
              {COLUMNS.map((title) => (
                <th scope="col" key={title}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={COLUMNS.length}>{props.empty}</td>
              </tr>
            )}
            {shown.before > 0 && <tr class="requests-space" style={{ height: `${shown.before}px` }} />}
            {rows.slice(shown.start, shown.end).map((row, i) => (
              <tr key={row.id} aria-rowindex={shown.start + i + 2}>
                <Cells row={row} />
              </tr>
            ))}
            {shown.after > 0 && <tr class="requests-space" style={{ height: `${shown.after}px` }} />}
          </tbody>
        </table>
      </div>
    </>
  );
}
