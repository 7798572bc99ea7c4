// The Node server signs and checks access tokens with Node's `crypto.createHmac` (its `hmacSha256` capability,
// src/hmac.ts) where the engine's portable path (msw, browsers) uses noble's HMAC in JavaScript: the same bytes.
import { describe, expect, it } from 'vitest';
import { Clock } from '../../../packages/engine/src/shared/clock.js';
import { Moment } from '../../../packages/engine/src/shared/moment.js';
import { TokenIssuer } from '../../../packages/engine/src/shared/auth/tokens.js';
import { hmacSha256 } from '../../src/hmac.js';
import { startServer } from '../../src/server.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);
const moment = new Moment(new Clock());

describe('the hmacSha256 capability', () => {
  it("gives the bytes of a published HMAC-SHA256 vector (RFC 4231's second)", () => {
    expect(hex(hmacSha256(utf8('Jefe'))('what do ya want for nothing?'))).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it("signs as the portable HMAC does, and each checks the other's tokens", async () => {
    const secret = 'basekit-access:dev-auth-id:a master key Zoë 🎮';
    const node = new TokenIssuer(secret, 'project', hmacSha256);
    const portable = new TokenIssuer(secret, 'project');
    for (const unsigned of ['a.b', 'eyJhbGciOiJIUzI1NiJ9.eyJ4IjoiWm_DqyJ9', `${'x'.repeat(300)}.ü`])
      expect(await node.sign(unsigned)).toBe(await portable.sign(unsigned));
    const fromNode = await node.issue(moment, 'client', 60, 'u1');
    const fromPortable = await portable.issue(moment, 'master', 60);
    expect(await portable.verify(fromNode.token, moment)).toMatchObject({ scope: 'client', userId: 'u1' });
    expect(await node.verify(fromPortable.token, moment)).toMatchObject({ scope: 'master' });
    expect(await node.verify(`${fromPortable.token.slice(0, -2)}AA`, moment)).toBeUndefined();
  });

  it('is the HMAC the Node server signs and checks its access tokens with', async () => {
    const server = await startServer({ port: 0 });
    try {
      expect(server.engine.project.capabilities.hmacSha256).toBe(hmacSha256);
    } finally {
      await server.close();
    }
  });
});
