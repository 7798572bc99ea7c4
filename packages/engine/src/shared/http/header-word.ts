/**
 * The service's header names carry one word, `X-<word>-Authentication-Id`: the spec writes the neutral "Service",
 * while a deployment (and the clients written for it) may use its product's own word. The routes read the spec's
 * names; this renames the accepted words' headers to them before routing, and drops `X-Service-…` headers when
 * "Service" is not accepted, so a project answers exactly the names it is configured for.
 */
const CANONICAL = 'x-service-';

export function withServiceHeaders(request: Request, words: readonly string[]): Request {
  if (words.length === 1 && words[0]!.toLowerCase() === 'service') return request;
  const prefixes = words.map((word) => `x-${word.toLowerCase()}-`);
  const headers = new Headers();
  let changed = false;
  for (const [name, value] of request.headers) {
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (prefix === undefined && name.startsWith(CANONICAL)) changed = true;
    else if (prefix !== undefined && prefix !== CANONICAL) {
      headers.set(CANONICAL + name.slice(prefix.length), value);
      changed = true;
    } else headers.append(name, value);
  }
  return changed ? withHeaders(request, headers) : request;
}

/** The same request with other headers. Built from its parts: `new Request(request, init)` fails on Node servers' lightweight requests. */
function withHeaders(request: Request, headers: Headers): Request {
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : request.body;
  // `duplex` is required for a streamed body and missing from TypeScript's RequestInit.
  return new Request(request.url, {
    method: request.method,
    headers,
    body,
    signal: request.signal,
    duplex: 'half',
  } as RequestInit);
}
