import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { HmacSha256 } from '../capabilities.js';
import { newId } from '../ids.js';
import type { Moment } from '../moment.js';

export type Scope = 'client' | 'master';

/** What an access token says about its bearer. */
export interface AccessClaims {
  projectId: string;
  scope: Scope;
  /** Absent for master tokens. */
  userId?: string;
  jti: string;
  /** Expiry, epoch seconds of the server clock. */
  exp: number;
}

interface IssuedToken {
  token: string;
  jti: string;
  expiresIn: number;
}

const CACHE_LIMIT = 10_000;

/** Base64url without padding, as JWS writes its segments. */
const encode = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');

/** The bytes of a base64url segment; throws on anything else (`+` and `/` included, as jose refuses them). */
function decode(segment: string): Uint8Array {
  if (/[+/]/.test(segment)) throw new TypeError('not base64url');
  return Uint8Array.from(atob(segment.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));
}

const HEADER = encode(bytesOf(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));

/** HMAC-SHA256 in JavaScript (noble), its keyed state made once and copied for each text. */
const portableHmacSha256: HmacSha256 = (key) => {
  const keyed = hmac.create(sha256, key);
  return (text) => keyed.clone().update(bytesOf(text)).digest();
};

const unexpired = (claims: AccessClaims, moment: Moment) => (claims.exp * 1000 <= moment.now() ? undefined : claims);

/**
 * The bytes of a text as a `Uint8Array` of this realm: test DOMs such as jsdom install a `TextEncoder` whose arrays
 * belong to another realm, which `instanceof Uint8Array` checks (jose's did) refuse.
 */
function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(new TextEncoder().encode(text));
}

/**
 * Signs and verifies access tokens (HS256 JWTs) against the server clock, as the request's `Moment` reads it.
 * Verified tokens are cached so that a hot path pays for the signature check once per token.
 */
export class TokenIssuer {
  readonly #verified = new Map<string, AccessClaims>();
  /**
   * Signs and verifies here and at once: the platform's HMAC (`hmacSha256`) where it lends one, else HMAC-SHA256 in
   * JavaScript with its keyed state made once. WebCrypto's sign is a round trip to a thread pool for a few hundred
   * bytes, which cost more CPU (21 against 14 µs a token) and a wake-up per login. Verifying the same way keeps jose
   * (about 4 KB gzip) out of browser bundles.
   */
  readonly #mac: (unsigned: string) => Uint8Array;

  constructor(
    secret: string,
    private readonly projectId: string,
    hmacSha256: HmacSha256 = portableHmacSha256,
  ) {
    this.#mac = hmacSha256(bytesOf(secret));
  }

  async issue(moment: Moment, scope: Scope, ttlSeconds: number, userId?: string): Promise<IssuedToken> {
    const jti = newId(moment, 16);
    const iat = Math.floor(moment.now() / 1000);
    // A JWT as a plain JWS: the claims are checked here, against the server clock.
    const claims = { scope, pid: this.projectId, jti, iat, exp: iat + ttlSeconds, ...(userId && { sub: userId }) };
    const token = this.#signNow(`${HEADER}.${encode(bytesOf(JSON.stringify(claims)))}`);
    return { token, jti, expiresIn: ttlSeconds };
  }

  /**
   * `unsigned` (a token's `header.payload`) signed with this issuer's key: the journal keeps the access tokens of
   * requests without their signature, and signs them again when it replays them (HS256 signs the same way each time).
   */
  async sign(unsigned: string): Promise<string> {
    return this.#signNow(unsigned);
  }

  #signNow(unsigned: string): string {
    return `${unsigned}.${encode(this.#mac(unsigned))}`;
  }

  /** The token's claims, or undefined when it is malformed, forged, of another project or expired at `moment`. */
  async verify(token: string, moment: Moment): Promise<AccessClaims | undefined> {
    const claims = this.#verified.get(token) ?? (await this.#verifySignature(token));
    return claims && unexpired(claims, moment);
  }

  /**
   * The claims of a token verified before and not expired since, at once (no promise to wait for, as every call
   * with a token a client keeps sending finds it here); undefined otherwise, when `verify` tells.
   */
  verified(token: string, moment: Moment): AccessClaims | undefined {
    const claims = this.#verified.get(token);
    return claims && unexpired(claims, moment);
  }

  /** The claims of a token whose signature is this project's, expired or not (to tell why `verify` refused it). */
  async signed(token: string): Promise<AccessClaims | undefined> {
    return this.#verified.get(token) ?? (await this.#verifySignature(token));
  }

  async #verifySignature(token: string): Promise<AccessClaims | undefined> {
    try {
      const bytes = this.#verifiedPayload(token);
      if (!bytes) return undefined;
      const payload: unknown = JSON.parse(new TextDecoder().decode(bytes));
      if (typeof payload !== 'object' || payload === null) return undefined;
      const { pid, exp, jti, scope, sub } = payload as Record<string, unknown>;
      if (pid !== this.projectId || typeof exp !== 'number' || typeof jti !== 'string') return undefined;
      if (scope !== 'client' && scope !== 'master') return undefined;
      if (sub !== undefined && typeof sub !== 'string') return undefined;
      if (scope === 'client' && sub === undefined) return undefined;
      const claims: AccessClaims = { projectId: this.projectId, scope, jti, exp };
      if (sub) claims.userId = sub;
      if (this.#verified.size >= CACHE_LIMIT) this.#verified.clear();
      this.#verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  }

  /**
   * The payload bytes of a compact JWS signed with this issuer's key, as jose's `compactVerify` with
   * `algorithms: ['HS256']` reads it: three base64url segments, a protected header that is a JSON object with `alg`
   * HS256 and no `crit` extension, and a signature equal to the HMAC of `header.payload` (compared in constant time).
   * Undefined, or a throw, otherwise.
   */
  #verifiedPayload(token: string): Uint8Array | undefined {
    const [header, payload, signature, ...rest] = token.split('.');
    if (signature === undefined || rest.length > 0) return undefined;
    const fields: unknown = JSON.parse(new TextDecoder().decode(decode(header!)));
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return undefined;
    const { alg, crit } = fields as Record<string, unknown>;
    if (alg !== 'HS256' || crit !== undefined) return undefined;
    const given = decode(signature);
    const expected = this.#mac(`${header}.${payload}`);
    let difference = given.length ^ expected.length;
    for (let i = 0; i < expected.length; i++) difference |= expected[i]! ^ (given[i] ?? 0);
    return difference === 0 ? decode(payload!) : undefined;
  }
}
