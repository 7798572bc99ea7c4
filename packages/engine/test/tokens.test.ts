// Access tokens are verified by the engine's own HS256 check (no jose): what it accepts and refuses.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Clock } from '../src/shared/clock.js';
import { Moment } from '../src/shared/moment.js';
import { TokenIssuer } from '../src/shared/auth/tokens.js';

const SECRET = 'the server secret';
const moment = new Moment(new Clock());
const b64url = (text: string | Buffer) => Buffer.from(text).toString('base64url');
/** A compact JWS over `header` and `claims` signed (HS256) with `secret`, made apart from the engine's code. */
const signed = (header: object, claims: object, secret = SECRET) => {
  const unsigned = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
};
const claims = () => ({
  scope: 'client',
  pid: 'project',
  jti: 'j1',
  sub: 'u1',
  exp: Math.floor(Date.now() / 1000) + 60,
});

describe('access tokens', () => {
  it('verifies what it issued, and a token of the same key made elsewhere', async () => {
    const issuer = new TokenIssuer(SECRET, 'project');
    const { token } = await issuer.issue(moment, 'master', 60);
    expect(token.split('.')[0]).toBe(b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
    expect(await issuer.verify(token, moment)).toMatchObject({ projectId: 'project', scope: 'master' });
    expect(await new TokenIssuer(SECRET, 'project').verify(signed({ alg: 'HS256' }, claims()), moment)).toMatchObject({
      scope: 'client',
      userId: 'u1',
    });
  });

  it('refuses another key, another algorithm, critical extensions, a changed payload or signature, malformed tokens', async () => {
    const issuer = new TokenIssuer(SECRET, 'project');
    const good = signed({ alg: 'HS256', typ: 'JWT' }, claims());
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const otherPayload = b64url(JSON.stringify({ ...claims(), scope: 'master' }));
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    for (const token of [
      signed({ alg: 'HS256' }, claims(), 'another secret'),
      signed({ alg: 'HS512' }, claims()),
      signed({ alg: 'none' }, claims()),
      signed({ alg: 'HS256', crit: ['exp'], exp: 1 }, claims()),
      signed(['HS256'], claims()),
      `${header}.${otherPayload}.${signature}`,
      `${header}.${payload}.${flipped}`,
      `${header}.${payload}.${signature.slice(0, -2)}`,
      `${header}.${payload}.`,
      `${header}.${payload}`,
      `${good}.x`,
      `${header}.${payload}.${signature.replace(/-/g, '+').replace(/_/g, '/')}${/[-_]/.test(signature) ? '' : '+'}`,
      'not a token',
      '',
    ])
      expect(await issuer.verify(token, moment), token).toBeUndefined();
  });

  it('refuses a token of another project, or expired at the moment', async () => {
    const issuer = new TokenIssuer(SECRET, 'project');
    expect(await new TokenIssuer(SECRET, 'other').verify(signed({ alg: 'HS256' }, claims()), moment)).toBeUndefined();
    const expired = signed({ alg: 'HS256' }, { ...claims(), exp: Math.floor(Date.now() / 1000) - 1 });
    expect(await issuer.verify(expired, moment)).toBeUndefined();
    expect(await issuer.signed(expired)).toMatchObject({ userId: 'u1' });
  });
});
