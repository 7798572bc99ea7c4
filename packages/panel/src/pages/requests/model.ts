// The request inspector's admin API (`/__admin/requests`): the kept list, one request in full, the live stream.
import type {
  BodyView,
  InspectedArea,
  RequestDetails as ExchangeDetails,
  RequestSummary as ExchangeSummary,
} from '@basekit/sdk/admin';
import { admin } from '../../api.js';

export type { BodyView, ExchangeDetails, ExchangeSummary };

export const AREAS: readonly InspectedArea[] = [
  'users',
  'database',
  'storage',
  'transcoder',
  'leaderboards',
  'admin',
  'other',
];
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
const PAGE_SIZE = 100;

/** The list's filters, as the URL's query and the admin API name them. */
export interface RequestFilter {
  area: string;
  status: string;
  user: string;
  text: string;
}

/** One page of the kept list, newest first, with the list's filters (those given). */
export const listRequests = (filter: RequestFilter, before?: string) =>
  admin().requests.list({ ...asked(filter), limit: PAGE_SIZE, ...(before && { before }) });

export const getRequest = (id: string) => admin().requests.get(id);

export const clearRequests = () => admin().requests.clear();

/** Who made a request, in a word: a username (the id of a user who no longer exists), `master` or `anonymous`. */
export const callerName = ({ caller }: ExchangeSummary): string =>
  caller.kind === 'user' ? (caller.username ?? caller.userId) : caller.kind;

/** Whether `user` (what the `user` filter takes: a user id, a username, `master` or `anonymous`) made the request. */
const madeBy = ({ caller }: ExchangeSummary, user: string): boolean =>
  caller.kind === 'user' ? caller.userId === user || caller.username === user : caller.kind === user;

/** The list's filters as the admin API takes them: those given. */
const asked = ({ area, status, user, text }: RequestFilter) => ({
  ...(area && { area: area as InspectedArea }),
  ...(status && { status }),
  ...(user && { user }),
  ...(text && { text }),
});

/** Exports the requests the filters keep as a HAR file (`GET /__admin/requests/har`); answers how many it holds. */
export async function exportHar(filter: RequestFilter): Promise<number> {
  const har = await admin().requests.har(asked(filter));
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([JSON.stringify(har, null, 2)], { type: 'application/json' }));
  link.download = `requests-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.har`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  return har.log.entries.length;
}

/** Sends a kept request again as it came; answers the new request's summary. */
export const replayRequest = (id: string) => admin().requests.replay(id);

/**
 * Whether a summary (one that arrived live, or one shown before the filters changed) belongs in the filtered list.
 * The text filter also searches bodies, which only the server has: a text found in the summary is a match, any
 * other answer for a text filter is undefined ("ask the server").
 */
export function matchesLive(summary: ExchangeSummary, filter: RequestFilter): boolean | undefined {
  if (filter.area && summary.area !== filter.area) return false;
  if (
    filter.status &&
    (/xx$/.test(filter.status)
      ? String(summary.status)[0] !== filter.status[0]
      : String(summary.status) !== filter.status)
  )
    return false;
  if (filter.user && !madeBy(summary, filter.user)) return false;
  if (!filter.text) return true;
  const { method, path, status, area, caller } = summary;
  const words = `${method} ${path} ${status} ${area} ${callerName(summary)} ${caller.kind === 'user' ? caller.userId : ''}`;
  return words.toLowerCase().includes(filter.text.toLowerCase()) || undefined;
}

/**
 * Follows the live stream (server-sent events over fetch: `EventSource` cannot send the master key) and calls
 * `onRequest` with each summary, until `signal` aborts; resolves when the stream ends.
 */
export async function followRequests(
  onRequest: (summary: ExchangeSummary) => void,
  onOpen: () => void,
  signal: AbortSignal,
): Promise<void> {
  const live = await admin().requests.follow({ signal });
  onOpen();
  for await (const summary of live) onRequest(summary);
}
