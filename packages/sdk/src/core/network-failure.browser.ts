/**
 * Why a request got no answer, as far as the platform says: Node's fetch (undici) names the cause in the error's
 * `cause` chain; a browser tells a script nothing (`unknown`), only its console says.
 *
 * @example
 * catch (e) { if (e instanceof NetworkError && e.reason === 'refused') console.log('is the server running?') }
 */
export type NetworkFailureReason =
  | 'certificate'
  | 'refused'
  | 'host-not-found'
  | 'timed-out'
  | 'connection-lost'
  | 'unreachable'
  | 'not-tls'
  | 'unknown';

/**
 * A network failure in words: its reason and a sentence naming it.
 *
 * @example
 * const { reason, text }: NetworkFailure = describeNetworkFailure(error);
 */
export interface NetworkFailure {
  reason: NetworkFailureReason;
  text: string;
}

/**
 * Why `error` (what fetch rejected with) left the request unanswered, where the platform names no cause: offline, or
 * the usual causes. This is all of it in bundles for browsers (the `browser` condition of `#network-failure` in
 * package.json), whose fetch gives scripts no cause; `./network-failure.ts` names Node's error codes first.
 *
 * @example
 * describeNetworkFailure(new TypeError('Failed to fetch')).reason; // 'unknown'
 */
export function describeNetworkFailure(error: unknown): NetworkFailure {
  if ((globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false)
    return { reason: 'unreachable', text: 'the device is offline' };
  // A browser's fetch says only "Failed to fetch" (Chromium), "Load failed" (Safari) or "NetworkError…" (Firefox).
  const said = (error as Error)?.message ?? String(error);
  return {
    reason: 'unknown',
    text: `${said}: no reason given (a browser names it only in its console: the server down or unreachable, its certificate not trusted, or CORS)`,
  };
}
