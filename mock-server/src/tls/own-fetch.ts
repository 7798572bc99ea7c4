import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The server's outbound fetch (transcoder sources, watermarks, deliveries, webhooks) when it serves a certificate of
 * its local CA: a call to its own HTTPS address (`isOwn`, e.g. a source given as the download URL an app got over
 * HTTPS) trusts that CA, as the app that made the call does; every other call is the platform's fetch, unchanged.
 *
 * @example
 * const fetch = fetchTrustingOwnCa(tls.ownCa, (url) => url.port === '3443');
 */
export function fetchTrustingOwnCa(ca: string, isOwn: (url: URL) => boolean): typeof fetch {
  const dispatcher = new Agent({ connect: { ca } });
  return (input, init) => {
    // The transcoder calls with URLs; a Request (of the platform's own classes) goes to the platform's fetch.
    const url = input instanceof Request ? undefined : new URL(input);
    if (!url || !isOwn(url)) return globalThis.fetch(input, init);
    return undiciFetch(url, { ...(init as object), dispatcher }) as unknown as Promise<Response>;
  };
}
