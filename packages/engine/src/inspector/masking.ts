import { servicePath } from '../shared/http/path.js';

/** What a masked secret reads as in the inspector. */
export const MASK = '[masked]';

/**
 * Names of JSON keys, form fields and query parameters whose values are secrets: passwords, access and refresh
 * tokens (`refresh_token`, `refresh-token`), keys and anything called a secret, in any case and with `-` or `_`.
 * `token_type` is not a secret and is left alone.
 */
const SECRET_NAME =
  /password|secret|authorization|authentication-key|api[-_]?key|(access|refresh|id)[-_]?token|^token$/i;

/** Header names whose values are secrets: `Authorization` and the key of every header word (`X-<word>-Authentication-Key`). */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-[^-]+-authentication-key)$/i;

export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);

/** A header's value as the inspector shows it: `Authorization: Bearer [masked]` keeps its scheme. */
function maskedHeader(name: string, value: string): string {
  if (!SECRET_HEADER.test(name)) return value;
  const scheme = /^authorization$/i.test(name) ? /^(\S+) \S/.exec(value)?.[1] : undefined;
  return scheme ? `${scheme} ${MASK}` : MASK;
}

/** Headers as a plain object (names in lower case, as `Headers` gives them), secrets masked. */
export function maskHeaders(headers: Headers): Record<string, string> {
  const shown: Record<string, string> = {};
  headers.forEach((value, name) => {
    shown[name] = maskedHeader(name, value);
  });
  return shown;
}

/** A copy of a JSON value with the value of every secret key masked, at any depth. */
export function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (typeof value !== 'object' || value === null) return value;
  const masked: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) masked[key] = isSecretName(key) ? MASK : maskJson(child);
  return masked;
}

/**
 * A URL's path and query as the client sent them, with the values of secret query parameters (`refresh-token`) and
 * of path parameters named as secrets in `route`, the pattern of the route that answered (the one-time token of an
 * e-mail confirmation link, `/auth/confirm/:token`), masked.
 *
 * @example
 * maskPathAndQuery(new URL('http://h/auth/confirm/f00d'), '/auth/confirm/:token'); // '/auth/confirm/[masked]'
 */
export function maskPathAndQuery(url: URL, route: string): string {
  const path = route.includes(':') ? maskPathParameters(url.pathname, route) : url.pathname;
  return url.search ? `${path}?${maskQuery(url.search.slice(1))}` : path;
}

/** `path` as the routes read it (`servicePath`), the segments that `route` names as secret parameters masked. */
function maskPathParameters(path: string, route: string): string {
  const pattern = route.split('/');
  return servicePath(path)
    .split('/')
    .map((segment, i) => (pattern[i]?.startsWith(':') && isSecretName(pattern[i].slice(1)) ? MASK : segment))
    .join('/');
}

/** A query string or URL-encoded form (`a=1&refresh-token=x`) with the values of secret names masked, the rest as sent. */
export function maskQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0]!;
      return isSecretName(decodeQueryName(name)) ? `${name}=${MASK}` : pair;
    })
    .join('&');
}

function decodeQueryName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** `"key": "value"`, the value possibly cut off at the end of the text. */
const JSON_STRING_MEMBER = /("((?:[^"\\]|\\.)*)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/g;

/** Text that is not valid JSON but may hold members of it (a malformed body): string values of secret keys masked. */
export function maskJsonLikeText(text: string): string {
  return text.replace(JSON_STRING_MEMBER, (member, head: string, key: string) =>
    isSecretName(key) ? `${head}"${MASK}"` : member,
  );
}
