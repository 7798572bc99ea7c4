/**
 * Why a request got no answer, from the error codes of Node (libuv, getaddrinfo, undici, OpenSSL) that its fetch puts
 * in the error's `cause` chain. Bundles for browsers get `./network-failure.browser.ts` instead (the `browser`
 * condition of `#network-failure` in package.json): a browser's fetch gives scripts no cause, so none of these codes
 * ever reaches them.
 */
import {
  type NetworkFailure,
  type NetworkFailureReason,
  describeNetworkFailure as describeUnexplained,
} from './network-failure.browser.js';

/** What the certificate codes of Node's TLS mean; any other certificate code: not trusted. */
const CERTIFICATE_CODES: Record<string, string> = {
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet (is the clock right?)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'does not name this host',
  CERT_REVOKED: 'was revoked',
};

/** Each other reason by the error codes of Node (libuv, getaddrinfo, undici, OpenSSL) that mean it. */
const REASONS: [RegExp, NetworkFailureReason, string][] = [
  [/^ECONNREFUSED$/, 'refused', 'connection refused: is the server running at that address?'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)$/, 'host-not-found', 'host not found'],
  [/TIMEOUT$|^ETIMEDOUT$/, 'timed-out', 'timed out'],
  [
    /^(ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET|UND_ERR_CLOSED)$/,
    'connection-lost',
    'the connection closed before the answer',
  ],
  [/^(ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN)$/, 'unreachable', 'network unreachable'],
  [/WRONG_VERSION_NUMBER|^EPROTO$/, 'not-tls', 'the server does not speak TLS there: an http:// address?'],
];

const isCertificateCode = (code: string) =>
  code in CERTIFICATE_CODES || /CERT|^UNABLE_TO_(GET|VERIFY)|SELF_SIGNED/.test(code);

/** The first error in the `cause` chain (and in an AggregateError's `errors`) that carries a string `code`. */
function codedCause(error: unknown, depth = 0): (Error & { code: string }) | undefined {
  if (!(error instanceof Error) || depth > 8) return undefined;
  if (typeof (error as { code?: unknown }).code === 'string') return error as Error & { code: string };
  const inner = [(error as { cause?: unknown }).cause, ...((error as { errors?: unknown[] }).errors ?? [])];
  for (const next of inner) {
    const found = codedCause(next, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Why `error` (what fetch rejected with) left the request unanswered, in words: the reason and a sentence naming it
 * and the platform's own code and message; where the platform names no cause, what a browser's variant says.
 *
 * @example
 * describeNetworkFailure(error).text; // 'connection refused: is the server running at that address? (connect ECONNREFUSED 127.0.0.1:3000)'
 */
export function describeNetworkFailure(error: unknown): NetworkFailure {
  const cause = codedCause(error);
  if (!cause) return describeUnexplained(error);
  const { code } = cause;
  // OpenSSL's own messages are internal detail (function names, source paths): the code says it all.
  const message = /error:[0-9A-F]+:/.test(cause.message) ? '' : cause.message;
  const detail = message.includes(code) ? message : message ? `${code}: ${message}` : code;
  if (isCertificateCode(code)) {
    const problem = CERTIFICATE_CODES[code];
    return {
      reason: 'certificate',
      text: problem
        ? `the server's certificate ${problem} (${detail})`
        : `the server's certificate is not trusted (${detail}): trust the CA that signed it (in Node: NODE_EXTRA_CA_CERTS=<its file>)`,
    };
  }
  const [, reason, text] = REASONS.find(([codes]) => codes.test(code)) ?? [undefined, 'unknown' as const, 'no answer'];
  return { reason, text: `${text} (${detail})` };
}
