/**
 * The spec's header name `X-Service-…` as a deployment whose header names carry its product's word sends it
 * (`ClientOptions.headerWord`); any other name as it is.
 *
 * @example
 * withHeaderWord('X-Service-Authentication-Key', 'Acme'); // 'X-Acme-Authentication-Key'
 */
export const withHeaderWord = (name: string, word: string): string => name.replace(/^x-service-/i, `X-${word}-`);

/**
 * Renames the spec's `X-Service-…` headers to `X-<word>-…` (`withHeaderWord`), in place.
 *
 * @example
 * renameServiceHeaders(request.headers, 'Acme'); // X-Service-Storage-Id becomes X-Acme-Storage-Id
 */
export function renameServiceHeaders(headers: Headers, word: string): void {
  for (const [name, value] of [...headers]) {
    const renamed = withHeaderWord(name, word);
    if (renamed === name) continue;
    headers.delete(name);
    headers.set(renamed, value);
  }
}
