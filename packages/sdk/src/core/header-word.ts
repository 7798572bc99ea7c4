const SPEC_PREFIX = 'x-service-';

/**
 * Renames the spec's `X-Service-…` headers to `X-<word>-…`, for a deployment whose header names carry its product's
 * word (`ClientOptions.headerWord`).
 *
 * @example
 * renameServiceHeaders(request.headers, 'Acme'); // X-Service-Storage-Id becomes X-Acme-Storage-Id
 */
export function renameServiceHeaders(headers: Headers, word: string): void {
  for (const [name, value] of [...headers]) {
    if (!name.startsWith(SPEC_PREFIX)) continue;
    headers.delete(name);
    headers.set(`X-${word}-${name.slice(SPEC_PREFIX.length)}`, value);
  }
}
