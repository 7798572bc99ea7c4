/**
 * The server's outbound fetch (transcoder sources, watermarks, deliveries, webhooks) when it serves a certificate of
 * its local CA: a call to its own HTTPS address (`isOwn`, e.g. a source given as the download URL an app got over
 * HTTPS) trusts that CA, as the app that made the call does; every other call is the platform's fetch, unchanged.
 * undici (for a dispatcher of its own) is loaded at the first such call, not at start-up.
 *
 * @example
 * const fetch = fetchTrustingOwnCa(tls.ownCa, (url) => url.port === '3443');
 */
export function fetchTrustingOwnCa(ca: string, isOwn: (url: URL) => boolean): typeof fetch {
  let trusting: Promise<(url: URL, init?: RequestInit) => Promise<Response>> | undefined;
  return async (input, init) => {
    // The transcoder calls with URLs; a Request (of the platform's own classes) goes to the platform's fetch.
    const url = input instanceof Request ? undefined : new URL(input);
    if (!url || !isOwn(url)) return globalThis.fetch(input, init);
    trusting ??= import('undici').then(({ Agent, fetch }) => {
      const dispatcher = new Agent({ connect: { ca } });
      return (target, options) => fetch(target, { ...(options as object), dispatcher }) as unknown as Promise<Response>;
    });
    return (await trusting)(url, init);
  };
}
