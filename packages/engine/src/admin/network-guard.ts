import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Config } from '../config.js';
import type { AppEnv } from '../shared/env.js';
import { ApiError, ErrorCode } from '../shared/errors.js';
import { hostnameOf, isIpAddress, isLocal, isLoopback, isNamed } from '../shared/http/hosts.js';
import { ADMIN_PREFIX } from '../shared/http/path.js';

/**
 * What keeps pages of other sites out of a server reached over a network (docs/reliability.md#a-hostile-page-dns-rebinding).
 * The admin API answers no CORS, and every call needs the key header, so a page of another origin can neither
 * send one (a preflight that is never allowed) nor read an answer; two doors stay, which this closes:
 * - DNS rebinding: a page whose own name comes to point at this server is same-origin with it. Admin calls are
 *   answered only under a host name that cannot be rebound (localhost, an IP address) or that the server knows as its
 *   own (the host it listens on, the machine's names, the `publicUrl`'s, `allowedHosts`); 403, code 20, otherwise.
 * - The built-in master key is public, and the service's API answers every origin (browser apps call it): a request
 *   from a page of another site (its `Origin`) that carries that key is refused (417, code 21; 403 on the admin API).
 *   Pages of this server, this machine and its local network may still use it.
 *
 * @param names the names the server goes by on its network: the host it listens on, the machine's names
 * @param serverConfig the server's config now (the default project's), for `publicUrl` and `allowedHosts`
 * @param builtInMasterKey the built-in config's master key (`DEFAULT_CONFIG.masterKey`), which is public
 */
export function networkGuard(
  names: readonly string[],
  serverConfig: () => Config,
  builtInMasterKey: string,
): MiddlewareHandler<AppEnv> {
  const given = names.map((name) => hostnameOf(name) ?? name);
  const ownNames = () => {
    const { publicUrl, allowedHosts = [] } = serverConfig();
    return [...given, ...(publicUrl ? [new URL(publicUrl).hostname] : []), ...allowedHosts];
  };
  /** A name the admin API answers under: one DNS cannot point elsewhere, or one the server knows as its own. */
  const answersUnder = (hostname: string | undefined, names: readonly string[]) =>
    hostname !== undefined && (isIpAddress(hostname) || isLoopback(hostname) || isNamed(hostname, names));

  // Most requests need no check (no admin call, no page of another origin): they pass with no async step of their own.
  return (c, next) => {
    // A request the journal replays at start-up was let in when it came: config changes since must not refuse it.
    if (c.env.project.restoring) return next();
    const admin = c.req.path.startsWith(ADMIN_PREFIX);
    const origin = c.req.header('origin');
    const builtInKey = origin !== undefined && carriesKey(c.req.raw.headers, builtInMasterKey);
    return admin || builtInKey ? checked(c, next, admin, builtInKey ? origin : undefined) : next();
  };

  /** Lets through an admin call (`admin`) or a request carrying the built-in key from a page (`origin`) when allowed. */
  async function checked(c: Context<AppEnv>, next: Next, admin: boolean, origin: string | undefined): Promise<void> {
    const names = ownNames();
    const requestHost = hostnameOf(new URL(c.req.url).host);
    if (admin) {
      // The URL's name and the Host header's, which differ only for a request target in absolute form.
      const hostHeader = c.req.header('host');
      for (const host of hostHeader === undefined ? [requestHost] : [requestHost, hostnameOf(hostHeader)]) {
        if (!answersUnder(host, names))
          throw new ApiError(
            403,
            ErrorCode.HOST_NOT_ALLOWED,
            `the admin API answers only under localhost, an IP address, the host this server listens on, this machine's names, its publicUrl's or a name of allowedHosts, and "${host ?? hostHeader}" is none of them (a page reaching this server through DNS rebinding looks like this; if it is this server's name, add it to allowedHosts)`,
          );
      }
    }
    if (origin !== undefined) {
      const site = siteOf(origin);
      const ownSite =
        site !== undefined &&
        (isLocal(site) || isNamed(site, names) || (site === requestHost && answersUnder(site, names)));
      if (!ownSite)
        throw new ApiError(
          admin ? 403 : 417,
          ErrorCode.BUILT_IN_KEY_REFUSED,
          `the built-in master key is public, so a page of another site (${origin}) may not use it: give the project a master key of its own, or open the page from this server, this machine, its local network or a name of allowedHosts`,
        );
    }
    await next();
  }
}

/** True when a key header (`X-<word>-Authentication-Key`, any word) carries `key`. */
function carriesKey(headers: Headers, key: string): boolean {
  for (const [name, value] of headers) if (value === key && name.endsWith('-authentication-key')) return true;
  return false;
}

/** The host name of a page's origin (`Origin` header); undefined for `null` (a sandboxed page, a file) and others. */
function siteOf(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname.replace(/\.$/, '') : undefined;
  } catch {
    return undefined;
  }
}
