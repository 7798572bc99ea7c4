import { useEffect, useRef, useState } from 'preact/hooks';
import { DataTable } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { Status } from '../../components/status.js';
import { href, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import {
  AREAS,
  STATUS_CLASSES,
  callerName,
  clearRequests,
  followRequests,
  listRequests,
  matchesLive,
  type ExchangeSummary,
  type RequestFilter,
} from './model.js';

/** Most rows the live list holds; older ones are a "Load older" away. */
const SHOWN = 500;
const RECONNECT_MS = 2000;

type Live = 'connecting' | 'live' | 'paused' | 'reconnecting';

function filterOf(query: URLSearchParams): RequestFilter {
  return {
    area: query.get('area') ?? '',
    status: query.get('status') ?? '',
    user: query.get('user') ?? '',
    text: query.get('text') ?? '',
  };
}

/** `14:03:07.219`: the local time of day to the millisecond, enough to tell quick requests apart. */
function time(iso: string): string {
  const at = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}.${String(at.getMilliseconds()).padStart(3, '0')}`;
}

/** The number of a request id (`<run>-<n>`): ids of one server run grow with each request. */
const seqOf = (summary: ExchangeSummary) => Number(summary.id.split('-').pop());

/** Two lists of summaries as one, newest first, each request once. */
function merged(a: ExchangeSummary[], b: ExchangeSummary[]): ExchangeSummary[] {
  const byId = new Map([...a, ...b].map((summary) => [summary.id, summary]));
  return [...byId.values()].sort((x, y) => seqOf(y) - seqOf(x)).slice(0, SHOWN);
}

/**
 * Every request the server answered, newest first, live: the kept list is loaded, then each new request arrives over
 * the stream. Filters live in the URL (`?area=&status=&user=&text=`), so a filtered view is a link too.
 */
export function RequestList() {
  const { query } = useRoute();
  const filter = filterOf(query);
  const filterKey = JSON.stringify(filter);
  const [rows, setRows] = useState<ExchangeSummary[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [capacity, setCapacity] = useState<number>();
  const [error, setError] = useState<unknown>();
  const [live, setLive] = useState<Live>('connecting');
  const [waiting, setWaiting] = useState<ExchangeSummary[]>([]);
  const paused = useRef(false);
  const action = useAction();
  const [draft, setDraft] = useState(filter);

  useEffect(() => setDraft(filter), [filterKey]);

  // The kept list, then the stream; both start again when the filters change.
  useEffect(() => {
    const stop = new AbortController();
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const page = await listRequests(filter);
        if (stop.signal.aborted) return;
        // Requests that arrived over the stream while the list was loading stay.
        setRows((shown) => merged(shown, page.requests));
        setNext(page.next);
        setCapacity(page.capacity);
        setError(undefined);
      } catch (loadError) {
        if (!stop.signal.aborted) setError(loadError);
      }
    };
    const arrived = (summary: ExchangeSummary) => {
      const fits = matchesLive(summary, filter);
      if (fits === false) return;
      // With a text filter only the server can tell (it searches bodies too): ask it again, at most a few times a second.
      if (fits === undefined) {
        reloadTimer ??= setTimeout(() => {
          reloadTimer = undefined;
          void load();
        }, 300);
        return;
      }
      if (paused.current) setWaiting((held) => [summary, ...held]);
      else setRows((shown) => merged([summary], shown));
    };
    // The stream first, then the list: a request answered in between is in one or the other, never lost.
    const opened = () => {
      setLive(paused.current ? 'paused' : 'live');
      void load();
    };
    const follow = async () => {
      while (!stop.signal.aborted) {
        try {
          await followRequests(arrived, opened, stop.signal);
        } catch (streamError) {
          if (stop.signal.aborted) return;
          setError(streamError);
        }
        // The stream ended (a restart, or this tab fell behind): reconnect and reload the list.
        setLive('reconnecting');
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    };
    setRows([]);
    setLive('connecting');
    void follow();
    return () => {
      stop.abort();
      clearTimeout(reloadTimer);
    };
  }, [filterKey]);

  const togglePause = () => {
    paused.current = !paused.current;
    if (!paused.current) {
      setRows((shown) => merged(waiting, shown));
      setWaiting([]);
    }
    setLive(paused.current ? 'paused' : 'live');
  };

  const loadOlder = () =>
    action.run(async () => {
      const page = await listRequests(filter, next ?? undefined);
      setRows((shown) => [...shown, ...page.requests]);
      setNext(page.next);
      return `${page.requests.length} older requests loaded.`;
    });

  const clear = () =>
    action.run(async () => {
      await clearRequests();
      setRows([]);
      setNext(null);
      return 'The list is empty.';
    });

  const submit = (event: Event) => {
    event.preventDefault();
    setQuery({ ...draft, text: draft.text.trim(), user: draft.user.trim() });
  };

  const liveText = {
    connecting: 'Connecting…',
    live: 'Live: new requests appear at the top.',
    paused: `Paused: ${waiting.length} new requests held.`,
    reconnecting: 'Reconnecting…',
  }[live];
  const filtered = Object.values(filter).some(Boolean);
  return (
    <>
      <form class="toolbar requests-filters" role="search" aria-label="Filter requests" onSubmit={submit}>
        <Field label="Area">
          {(id) => (
            <select id={id} value={draft.area} onChange={(e) => setDraft({ ...draft, area: e.currentTarget.value })}>
              <option value="">any</option>
              {AREAS.map((area) => (
                <option key={area} value={area}>
                  {area}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Status">
          {(id) => (
            <select
              id={id}
              value={draft.status}
              onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}
            >
              <option value="">any</option>
              {STATUS_CLASSES.map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Caller">
          {(id) => (
            <input
              id={id}
              placeholder="user id, master or anonymous"
              value={draft.user}
              onInput={(e) => setDraft({ ...draft, user: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="Text">
          {(id) => (
            <input
              id={id}
              type="search"
              placeholder="in the path or the bodies"
              value={draft.text}
              onInput={(e) => setDraft({ ...draft, text: e.currentTarget.value })}
            />
          )}
        </Field>
        <button type="submit">Filter</button>
        {filtered && <a href={href('requests')}>Clear filters</a>}
      </form>
      <div class="toolbar">
        <button type="button" aria-pressed={live === 'paused'} onClick={togglePause}>
          {live === 'paused' ? 'Resume' : 'Pause'}
        </button>
        <button type="button" class="danger" onClick={clear}>
          Empty the list
        </button>
        <span class="requests-live" data-live={live}>
          {liveText}
        </span>
      </div>
      <Status error={error ?? action.error}>{action.message}</Status>
      <DataTable
        caption={`Requests${filtered ? ' (filtered)' : ''}: ${rows.length} shown${capacity !== undefined ? `, the server keeps the last ${capacity}` : ''}`}
        rows={rows}
        rowKey={(row) => row.id}
        empty={filtered ? 'No request matches.' : 'No requests yet: make one and it appears here.'}
        columns={[
          { title: 'Time', cell: (row) => <time dateTime={row.time}>{time(row.time)}</time> },
          { title: 'Method', cell: (row) => row.method },
          {
            title: 'Path',
            cell: (row) => (
              <a href={href('requests', row.id)} class="requests-path">
                {row.path}
              </a>
            ),
          },
          { title: 'Status', cell: (row) => <StatusCell row={row} /> },
          { title: 'Duration', cell: (row) => `${row.durationMs} ms` },
          {
            title: 'Caller',
            cell: (row) =>
              row.caller.kind === 'user' ? (
                <a href={href('users', row.caller.userId)}>{callerName(row)}</a>
              ) : (
                callerName(row)
              ),
          },
          { title: 'Area', cell: (row) => row.area },
        ]}
      />
      {next && (
        <button type="button" onClick={loadOlder}>
          Load older
        </button>
      )}
    </>
  );
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
