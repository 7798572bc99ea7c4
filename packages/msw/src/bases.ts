/**
 * The addresses the handlers answer on. `baseUrl`, `storageUrl` and `transcoderUrl` may share an origin or
 * carry a path prefix (`https://example.com/api`); the engine serves every area at the root of one origin.
 */
export interface Base {
  /** Origin and path prefix, without a trailing slash: `https://example.com/api`. */
  href: string;
  origin: string;
  /** The path prefix removed before the engine sees a request: `/api`, or `''`. */
  prefix: string;
}

/**
 * The distinct bases of the given URLs (unset ones skipped), the longest prefix first so that a more specific
 * base claims its requests before a shorter one on the same origin. Relative URLs resolve against the page.
 *
 * @example
 * distinctBases(['https://api.test', 'https://api.test/', 'https://cdn.test/files']);
 * // [{ href: 'https://cdn.test/files', prefix: '/files', ... }, { href: 'https://api.test', prefix: '', ... }]
 */
export function distinctBases(urls: readonly (string | undefined)[]): Base[] {
  const bases = new Map<string, Base>();
  for (const url of urls) {
    if (url === undefined) continue;
    const parsed = new URL(url, globalThis.location?.href);
    const prefix = parsed.pathname.replace(/\/+$/, '');
    const href = parsed.origin + prefix;
    bases.set(href, { href, origin: parsed.origin, prefix });
  }
  return [...bases.values()].sort((a, b) => b.prefix.length - a.prefix.length);
}

/** The request as the engine must see it: the base's path prefix removed (the body is buffered only then). */
export async function toEngineRequest(request: Request, base: Base): Promise<Request> {
  if (base.prefix === '') return request;
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(base.prefix.length) || '/';
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
  return new Request(url, { method: request.method, headers: request.headers, body, signal: request.signal });
}
