/**
 * The path the routes see. The service's published clients add a trailing `/` to every path
 * (`POST /auth/login/`), double one inside a path where they join two parts that both bring a `/`
 * (`GET /auth//users/get-number-of-user/`), and build download addresses as host + "/" + a URL that already starts
 * with one (`GET //bucket/a.txt`): the real service answered all of them, so each run of `/` is read as one and a
 * trailing `/` is dropped.
 *
 * @example
 * servicePath('//bucket/dir//a.txt/'); // '/bucket/dir/a.txt'
 */
export function servicePath(pathname: string): string {
  // Most paths need neither change: checked first, as this runs for every request.
  if (!pathname.includes('//') && (pathname.length === 1 || !pathname.endsWith('/'))) return pathname;
  return pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
}

/** The prefix of the admin API's paths (and the panel's), which answer no other origin. */
export const ADMIN_PREFIX = '/__admin';
