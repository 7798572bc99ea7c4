import { Component } from 'preact';
import { href } from '../../router.js';
import type { ExchangeSummary } from './model.js';

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
 * One request of the list. A summary never changes once answered, so a row renders once: with hundreds of rows and
 * new ones arriving many times a second, the list's work is the new rows only.
 */
class Row extends Component<{ row: ExchangeSummary }> {
  override shouldComponentUpdate(next: { row: ExchangeSummary }): boolean {
    return next.row !== this.props.row;
  }

  override render({ row }: { row: ExchangeSummary }) {
    const { caller } = row;
    return (
      <tr>
        <td>
          <time dateTime={row.time}>{time(row.time)}</time>
        </td>
        <td>{row.method}</td>
        <td class="requests-path">
          <a href={href('requests', row.id)}>{row.path}</a>
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
      </tr>
    );
  }
}

const COLUMNS = ['Time', 'Method', 'Path', 'Status', 'Duration', 'Caller', 'Area'];

/** The requests, newest first: a table with a caption (its name), a row per request. */
export function RequestTable({ caption, rows, empty }: { caption: string; rows: ExchangeSummary[]; empty: string }) {
  return (
    <div class="table-scroll">
      <table class="requests">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {COLUMNS.map((title) => (
              <th scope="col" key={title}>
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={COLUMNS.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row) => <Row key={row.id} row={row} />)
          )}
        </tbody>
      </table>
    </div>
  );
}
