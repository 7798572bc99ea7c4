/**
 * The project an access token names (its `pid` claim, the project's authentication id), read without checking the
 * signature: it only chooses the project, whose own key then verifies the token (a forged `pid` gets a 401 there).
 * Requests to the transcoder carry nothing else that tells their project.
 *
 * @example
 * tokenProjectId('Bearer eyJhbGciOi....eyJwaWQiOiJhcHAifQ.sig'); // 'app'
 */
export function tokenProjectId(authorization: string | null): string | undefined {
  if (authorization === null) return undefined;
  const start = authorization.indexOf('.');
  const end = authorization.indexOf('.', start + 1);
  if (start === -1 || end === -1) return undefined;
  try {
    const base64 = authorization
      .slice(start + 1, end)
      .replace(/-/g, '+')
      .replace(/_/g, '/');
    const claims: unknown = JSON.parse(atob(base64));
    const pid = (claims as { pid?: unknown } | null)?.pid;
    return typeof pid === 'string' ? pid : undefined;
  } catch {
    return undefined; // not a token of this server: the default project refuses it
  }
}
