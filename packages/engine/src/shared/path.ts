/**
 * The path the routes see. The service's published clients add a trailing `/` to every path
 * (`POST /auth/login/`), and build download addresses as host + "/" + a URL that already starts with one
 * (`GET //bucket/a.txt`): the real service answered both, so both are read as the plain path.
 *
 * @example
 * servicePath('//bucket/dir/a.txt/'); // '/bucket/dir/a.txt'
 */
export function servicePath(pathname: string): string {
  return pathname.replace(/^\/{2,}/, '/').replace(/(.)\/+$/, '$1');
}
