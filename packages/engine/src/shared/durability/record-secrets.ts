import type { Moment } from '../moment.js';
import type { Project } from '../project.js';
import { sameSecret } from '../auth/secrets.js';
import type { TokenIssuer } from '../auth/tokens.js';

// How the journal keeps a request without the secrets it carried, and puts back what replaying it needs.

/**
 * The inputs of an operation that carry a password or a token a client holds, by where they are: top-level string
 * fields of a JSON body, fields of a login form, query parameters. The journal writes each as `*`; what the engine
 * worked out from it (a hash, a digest) is kept as a secret outcome (`Moment.secretOutcome`) and handed back when the request is replayed.
 */
export interface SecretInputs {
  json?: readonly string[];
  form?: readonly string[];
  query?: readonly string[];
}

/** What a secret input reads as in the journal (not empty, so that a replayed request passes the same checks). */
const STRIPPED = '*';

/**
 * A header that carried a credential, kept by what it was: one of the project's keys (put back as the project has it
 * when the request is replayed), or an access token without its signature (signed again then).
 */
export type Credential = [name: string, is: 'masterKey' | 'clientKey'] | [name: string, is: 'token', unsigned: string];

/** Headers never kept: those of the connection, and credentials the engine does not read. */
const NOT_KEPT = new Set([
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'cookie',
  'proxy-authorization',
]);
/** The key header of any header word (`X-<word>-Authentication-Key`). */
const KEY_HEADER = /^x-[^-]+-authentication-key$/;
const FORM = /^(multipart\/form-data|application\/x-www-form-urlencoded)/i;
const BEARER = /^(\S+) ([^\s.]+\.[^\s.]+)\.[^\s.]+$/;

/** A request's headers as the journal keeps them, and the access token it carried, to keep once it is known valid. */
interface KeptHeaders {
  headers: [string, string][];
  credentials: Credential[];
  token?: { name: string; scheme: string; token: string; unsigned: string };
}

/**
 * Splits a request's headers, before it is handled (with the keys the project has then), into those kept as sent and
 * credentials. A key header that holds none of the project's keys is dropped: it was a wrong key, which the request
 * did not need to succeed.
 */
export function keptHeaders(request: Request, project: Project): KeptHeaders {
  const { masterKey, clientKey } = project.config;
  const kept: KeptHeaders = { headers: [], credentials: [] };
  for (const [name, value] of request.headers) {
    if (NOT_KEPT.has(name)) continue;
    // Compared in constant time, as every comparison with a key (a wrong key may be an attacker's guess).
    if (sameSecret(value, masterKey)) kept.credentials.push([name, 'masterKey']);
    else if (sameSecret(value, clientKey)) kept.credentials.push([name, 'clientKey']);
    else if (name === 'authorization') {
      const match = BEARER.exec(value);
      if (match)
        kept.token = { name, scheme: match[1]!, token: value.slice(match[1]!.length + 1), unsigned: match[2]! };
    } else if (!KEY_HEADER.test(name)) kept.headers.push([name, value]);
  }
  return kept;
}

/**
 * The credentials to keep once the request was handled at `moment`: its access token when `issuer` verified it (the
 * token is then signed again on replay, to the same token); otherwise the request succeeded without a valid token,
 * and is replayed without one.
 */
export function keptCredentials(kept: KeptHeaders, issuer: TokenIssuer, moment: Moment): Credential[] {
  const { token } = kept;
  if (!token || !issuer.verified(token.token, moment)) return kept.credentials;
  return [...kept.credentials, [token.name, 'token', `${token.scheme} ${token.unsigned}`]];
}

/** The headers of a replayed request: those kept, and each credential as the project has it now. */
export async function replayedHeaders(
  headers: [string, string][],
  credentials: readonly Credential[],
  project: Project,
): Promise<[string, string][]> {
  const all = [...headers];
  for (const [name, is, unsigned] of credentials) {
    if (is !== 'token') all.push([name, project.config[is]]);
    else {
      const space = unsigned.indexOf(' ');
      all.push([name, `${unsigned.slice(0, space)} ${await project.tokens.sign(unsigned.slice(space + 1))}`]);
    }
  }
  return all;
}

/** `url` with the values of its secret query parameters stripped. */
export function strippedUrl(url: string, inputs: SecretInputs): string {
  if (!inputs.query) return url;
  const parsed = new URL(url);
  for (const name of inputs.query) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, STRIPPED);
  return parsed.href;
}

/**
 * The body of a request that succeeded with its secret fields stripped, and the content type it then has (a login
 * form is kept URL-encoded, whatever it came as).
 */
export async function strippedBody(
  request: Request,
  body: Uint8Array<ArrayBuffer>,
  inputs: SecretInputs,
): Promise<{ body: Uint8Array<ArrayBuffer>; contentType?: string }> {
  if (inputs.json) {
    const json = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
    for (const name of inputs.json) if (typeof json[name] === 'string') json[name] = STRIPPED;
    return { body: new TextEncoder().encode(JSON.stringify(json)) };
  }
  const contentType = request.headers.get('content-type') ?? '';
  // The engine reads a form only when it is sent as one (anything else it does not read).
  if (inputs.form && FORM.test(contentType)) {
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    const fields = new URLSearchParams();
    form.forEach((value, name) => {
      if (typeof value === 'string') fields.append(name, inputs.form!.includes(name) ? STRIPPED : value);
    });
    return { body: new TextEncoder().encode(fields.toString()), contentType: 'application/x-www-form-urlencoded' };
  }
  return { body };
}
