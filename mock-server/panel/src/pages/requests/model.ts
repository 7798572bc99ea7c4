// The request inspector's admin API (`/__admin/requests`): the kept list, one request in full, the live stream.
import type { BodyView, ExchangeDetails, ExchangeSummary, InspectedArea } from '@basekit/engine';
import { admin, adminResponse } from '../../api.js';

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
export const PAGE_SIZE = 100;

/** The list's filters, as the URL's query and the admin API name them. */
export interface RequestFilter {
  area: string;
  status: string;
  user: string;
  text: string;
}

export interface RequestPage {
  requests: ExchangeSummary[];
  next: string | null;
  capacity: number;
}

function filterQuery(filter: RequestFilter, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, ...extra })) if (value) query.set(key, value);
  return query.size ? `?${query}` : '';
}

export const listRequests = (filter: RequestFilter, before?: string) =>
  admin<RequestPage>(
    `/__admin/requests${filterQuery(filter, { limit: String(PAGE_SIZE), ...(before && { before }) })}`,
  );

export const getRequest = (id: string) => admin<ExchangeDetails>(`/__admin/requests/${encodeURIComponent(id)}`);

export const clearRequests = () => admin<Record<string, never>>('/__admin/requests', { method: 'DELETE' });

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
 * Reads the live stream (server-sent events over fetch: `EventSource` cannot send the master key) and calls
 * `onRequest` with each summary, until `signal` aborts; resolves when the stream ends.
 */
export async function followRequests(
  onRequest: (summary: ExchangeSummary) => void,
  onOpen: () => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await adminResponse('/__admin/requests/stream', { signal });
  if (!response.ok || !response.body) throw new Error(`the live stream answered ${response.status}`);
  onOpen();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    const events = buffered.split('\n\n');
    buffered = events.pop()!;
    for (const event of events) {
      const lines = event.split('\n');
      const data = lines.find((line) => line.startsWith('data: '));
      if (lines.includes('event: request') && data)
        onRequest(JSON.parse(data.slice('data: '.length)) as ExchangeSummary);
    }
  }
}
