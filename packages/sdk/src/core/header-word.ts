/**
 * Renames the spec's `X-Service-…` headers to `X-<word>-…`, for a deployment whose header names carry its product's
 * word (`ClientOptions.headerWord`).
 *
 * @example
 * renameServiceHeaders(request.headers, 'Acme'); // X-Service-Storage-Id becomes x-Acme-storage-id
 */
export function renameServiceHeaders(headers: Headers, word: string): void {
  for (const [name, value] of [...headers]) {
    if (!name.startsWith('x-service-')) continue;
    headers.delete(name);
    headers.set(name.replace('service', word), value);
  }
}
