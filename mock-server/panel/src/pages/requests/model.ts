// The request inspector's admin API (`/__admin/requests`): the kept list, one request in full, the live stream.
import type { BodyView, InspectedArea, RequestSummary as ExchangeSummary } from '@basekit/sdk/admin';
import { admin } from '../../api.js';

export type { BodyView, ExchangeSummary };

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
export const listRequests = ({ area, status, user, text }: RequestFilter, before?: string) =>
  admin().requests.list({
    ...(area && { area: area as InspectedArea }),
    ...(status && { status }),
    ...(user && { user }),
    ...(text && { text }),
    limit: PAGE_SIZE,
    ...(before && { before }),
  });

export const getRequest = (id: string) => admin().requests.get(id);

export const clearRequests = () => admin().requests.clear();

/** Who made a request, in a word: a user id, `master` or `anonymous` (what the `user` filter takes). */
export const callerName = (summary: ExchangeSummary): string =>
  summary.caller.kind === 'user' ? summary.caller.userId : summary.caller.kind;

/**
 * Whether a summary that arrived live belongs in the filtered list. The text filter also searches bodies, which only
 * the server has: with one, undefined says "ask the server".
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
  if (filter.user && callerName(summary) !== filter.user) return false;
  return filter.text ? undefined : true;
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
