import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { press, usePageCommands } from '../../commands.js';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { count } from '../../plural.js';
import { href, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import {
  AREAS,
  STATUS_CLASSES,
  clearRequests,
  exportHar,
  followRequests,
  listRequests,
  matchesLive,
  type ExchangeSummary,
  type RequestFilter,
} from './model.js';
import { RequestTable } from './request-table.js';

/** Most rows the live list holds; older ones are a "Load older" away. */
const SHOWN = 500;
const RECONNECT_MS = 2000;
/** With a text filter, which only the server can apply to bodies, the list is asked again at most this often. */
const TEXT_RELOAD_MS = 300;

type Live = 'connecting' | 'live' | 'paused' | 'reconnecting';

function filterOf(query: URLSearchParams): RequestFilter {
  return {
    area: query.get('area') ?? '',
    status: query.get('status') ?? '',
    user: query.get('user') ?? '',
    text: query.get('text') ?? '',
  };
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
 * the stream. Arrivals are shown once a frame, however many came in it, only the rows in view are rendered and a row
 * once rendered is never rendered again, so the page keeps up with hundreds of requests a second. While paused, or
 * while the person reads (the list scrolled away from its top, or the focus in it), arrivals are held and counted
 * instead, so that nothing moves under their eyes. Filters live in the URL (`?area=&status=&user=&text=`), so a
 * filtered view is a link too; a new filter narrows the rows shown at once, then the server's answer fills the list.
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
  const [held, setHeld] = useState(0);
  const [reading, setReading] = useState(false);
  const action = useAction();
  const [draft, setDraft] = useState(filter);
  /**
   * What the stream's handlers read and the buttons change: the filters now, whether paused or reading, arrivals not
   * shown yet (oldest first), those held (the newest `SHOWN` of them, oldest first; how many in all) and whether a
   * text filter's list went stale meanwhile; the next frame's update, and how to load the list.
   */
  const current = useRef({
    filter,
    filterKey,
    paused: false,
    reading: false,
    arrived: [] as ExchangeSummary[],
    waiting: [] as ExchangeSummary[],
    held: 0,
    stale: false,
    frame: undefined as number | undefined,
    show: () => {},
    load: async () => {},
  });
  Object.assign(current.current, { filter, filterKey });

  // Before the page can take input: an effect would run after the first paint and undo what was typed meanwhile.
  useLayoutEffect(() => setDraft(filter), [filterKey]);
  usePageCommands([
    { title: 'Pause or resume the live list', run: () => press(live === 'paused' ? 'Resume' : 'Pause') },
    { title: 'Export the requests as HAR', run: () => press('Export as HAR') },
    { title: 'Empty the request list', run: () => press('Empty the list') },
  ]);

  // The stream, for as long as the page is open (reconnecting when it ends), and the kept list with it.
  useEffect(() => {
    const stop = new AbortController();
    let reloadTimer: ReturnType<typeof setTimeout> | undefined;
    const now = current.current;
    now.show = () => {
      now.frame = undefined;
      const batch = now.arrived.reverse();
      now.arrived = [];
      // Newer than every row shown (the usual case): on top; else (the list loaded them too) merged.
      if (batch.length > 0)
        setRows((shown) =>
          shown.length === 0 || seqOf(batch[batch.length - 1]!) > seqOf(shown[0]!)
            ? [...batch, ...shown].slice(0, SHOWN)
            : merged(batch, shown),
        );
      setHeld(now.held);
    };
    const load = async () => {
      const { filter: asked, filterKey: key } = now;
      try {
        const page = await listRequests(asked);
        if (stop.signal.aborted || key !== now.filterKey) return;
        // Requests that arrived over the stream while the list was loading stay.
        setRows((shown) => merged(shown, page.requests));
        setNext(page.next);
        setCapacity(page.capacity);
        setError(undefined);
      } catch (loadError) {
        if (!stop.signal.aborted) setError(loadError);
      }
    };
    now.load = load;
    const arrived = (summary: ExchangeSummary) => {
      const fits = matchesLive(summary, now.filter);
      if (fits === false) return;
      // With a text filter only the server can tell (it searches bodies too): ask it again, a few times a second
      // (once the list shows arrivals again, if they are held).
      if (fits === undefined) {
        reloadTimer ??= setTimeout(() => {
          reloadTimer = undefined;
          if (now.paused || now.reading) now.stale = true;
          else void load();
        }, TEXT_RELOAD_MS);
        return;
      }
      if (now.paused || now.reading) {
        now.held++;
        // The newest SHOWN are enough: the list shows no more (older ones are a "Load older" away).
        if (now.waiting.push(summary) > 2 * SHOWN) now.waiting.splice(0, SHOWN);
      } else now.arrived.push(summary);
      now.frame ??= requestAnimationFrame(now.show);
    };
    // The stream first, then the list: a request answered in between is in one or the other, never lost.
    const opened = () => {
      setLive(now.paused ? 'paused' : 'live');
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
    void follow();
    return () => {
      stop.abort();
      clearTimeout(reloadTimer);
      if (now.frame !== undefined) cancelAnimationFrame(now.frame);
    };
  }, []);

  /** Shows what was held, once neither paused nor reading. */
  const release = () => {
    const now = current.current;
    if (now.paused || now.reading) return;
    now.arrived.push(...now.waiting.slice(-SHOWN));
    now.waiting = [];
    now.held = 0;
    now.frame ??= requestAnimationFrame(now.show);
    if (now.stale) {
      now.stale = false;
      void now.load();
    }
  };

  const togglePause = () => {
    const now = current.current;
    now.paused = !now.paused;
    release();
    setLive(now.paused ? 'paused' : 'live');
  };

  const onReading = (reading: boolean) => {
    current.current.reading = reading;
    release();
    setReading(reading);
  };

  // New filters: the rows shown that pass them at once, then the server's list of them.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const now = current.current;
    const fits = (summary: ExchangeSummary) => matchesLive(summary, filter) === true;
    setRows((shown) => shown.filter(fits));
    now.waiting = now.waiting.filter(fits);
    now.held = now.waiting.length;
    setHeld(now.held);
    setNext(null);
    // The table starts again at its top (its key): what was held while reading shows, unless paused.
    now.stale = false;
    onReading(false);
    void now.load();
  }, [filterKey]);

  const loadOlder = () =>
    action.run(async () => {
      const page = await listRequests(filter, next ?? undefined);
      setRows((shown) => [...shown, ...page.requests]);
      setNext(page.next);
      return `${count(page.requests.length, 'older request')} loaded.`;
    });

  const clear = () =>
    action.run(async () => {
      await clearRequests();
      setRows([]);
      setNext(null);
      return 'The list is empty.';
    });

  const exportList = () =>
    action.run(async () => `Exported ${count(await exportHar(filter), 'request')} as a HAR file.`);

  const submit = (event: Event) => {
    event.preventDefault();
    setQuery({ ...draft, text: draft.text.trim(), user: draft.user.trim() });
  };

  const liveText = {
    connecting: 'Connecting…',
    live: reading ? `Held while you read: ${count(held, 'new request')}.` : 'Live: new requests appear at the top.',
    paused: `Paused: ${count(held, 'new request')} held.`,
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
        <InputField
          label="Caller"
          placeholder="username, user id, master or anonymous"
          value={draft.user}
          onValue={(user) => setDraft({ ...draft, user })}
        />
        <InputField
          label="Text"
          type="search"
          placeholder="in the path or the bodies"
          value={draft.text}
          onValue={(text) => setDraft({ ...draft, text })}
        />
        <button type="submit">Filter</button>
        {filtered && <a href={href('requests')}>Clear filters</a>}
      </form>
      <div class="toolbar">
        <button type="button" aria-pressed={live === 'paused'} onClick={togglePause}>
          {live === 'paused' ? 'Resume' : 'Pause'}
        </button>
        <button type="button" onClick={exportList}>
          Export as HAR
        </button>
        <button type="button" class="danger" onClick={clear}>
          Empty the list
        </button>
        <span class="requests-live" data-live={live}>
          {liveText}
        </span>
      </div>
      <Status error={error ?? action.error}>{action.message}</Status>
      <RequestTable
        // A new filter shows its list from the top, the newest first.
        key={filterKey}
        name={`Requests${filtered ? ' (filtered)' : ''}: ${rows.length} shown${capacity !== undefined ? `, the server keeps the last ${capacity}` : ''}`}
        rows={rows}
        empty={filtered ? 'No request matches.' : 'No requests yet: make one and it appears here.'}
        onReading={onReading}
      />
      {next && (
        <button type="button" onClick={loadOlder}>
          Load older
        </button>
      )}
    </>
  );
}
