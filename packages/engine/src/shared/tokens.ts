import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from './clock.js';
import { newId } from './ids.js';

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

export interface IssuedToken {
  token: string;
  jti: string;
  expiresIn: number;
}

const CACHE_LIMIT = 10_000;

/**
 * Signs and verifies access tokens (HS256 JWTs) against the server clock.
 * Verified tokens are cached so that a hot path pays for the signature check once per token.
 */
export class TokenIssuer {
  readonly #verified = new Map<string, AccessClaims>();
  #key?: Promise<CryptoKey>;

  constructor(
    private readonly secret: string,
    private readonly projectId: string,
    private readonly clock: Clock,
  ) {}

  /**
   * The HMAC key as a WebCrypto `CryptoKey`, imported once. jose takes raw key bytes only when they are a
   * `Uint8Array` of its own realm, and test DOMs such as jsdom install a `TextEncoder` of another realm, so raw
   * bytes would fail every token there; a `CryptoKey` is recognised in any realm (and is not re-imported per token).
   */
  #signingKey(): Promise<CryptoKey> {
    this.#key ??= crypto.subtle.importKey('raw', new TextEncoder().encode(this.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.#key;
  }

  async issue(scope: Scope, ttlSeconds: number, userId?: string): Promise<IssuedToken> {
    const jti = newId(16);
    const now = Math.floor(this.clock.now() / 1000);
    const jwt = new SignJWT({ scope, pid: this.projectId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(jti)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds);
    if (userId) jwt.setSubject(userId);
    return { token: await jwt.sign(await this.#signingKey()), jti, expiresIn: ttlSeconds };
  }

  /** The token's claims, or undefined when it is malformed, forged, of another project or expired. */
  async verify(token: string): Promise<AccessClaims | undefined> {
    const claims = this.#verified.get(token) ?? (await this.#verifySignature(token));
    if (!claims || claims.exp * 1000 <= this.clock.now()) return undefined;
    return claims;
  }

  async #verifySignature(token: string): Promise<AccessClaims | undefined> {
    try {
      // Expiry is checked against the server clock by the caller, so jose must not check it against real time.
      const { payload } = await jwtVerify(token, await this.#signingKey(), { algorithms: ['HS256'], currentDate: new Date(0) });
      if (payload['pid'] !== this.projectId || typeof payload.exp !== 'number' || typeof payload.jti !== 'string') return undefined;
      const scope = payload['scope'];
      if (scope !== 'client' && scope !== 'master') return undefined;
      if (scope === 'client' && typeof payload.sub !== 'string') return undefined;
      const claims: AccessClaims = { projectId: this.projectId, scope, jti: payload.jti, exp: payload.exp };
      if (payload.sub) claims.userId = payload.sub;
      if (this.#verified.size >= CACHE_LIMIT) this.#verified.clear();
      this.#verified.set(token, claims);
      return claims;
    } catch {
      return undefined;
    }
  }
}
