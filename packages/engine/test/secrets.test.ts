import { describe, expect, it } from 'vitest';
import { RefreshTokens } from '../src/areas/users/refresh-tokens.js';
import { SecretMap, sameSecret } from '../src/shared/auth/secrets.js';

describe('sameSecret', () => {
  it('is true for the same text only', () => {
    expect(sameSecret('dev-master-key', 'dev-master-key')).toBe(true);
    for (const given of ['', 'dev-master-ke', 'dev-master-key!', 'Dev-master-key', 'dev-master-kez', '\0'])
      expect(sameSecret(given, 'dev-master-key')).toBe(false);
    expect(sameSecret('', '')).toBe(true);
  });
});

describe('SecretMap', () => {
  it('finds each secret, also secrets that share their first characters', () => {
    const map = new SecretMap<number>();
    const shared = 'refresh-token-for-user-number-';
    map.set(`${shared}1`, 1).set(`${shared}2`, 2).set('short', 3);
    expect([map.get(`${shared}1`), map.get(`${shared}2`), map.get('short'), map.get(`${shared}3`)]).toEqual([
      1,
      2,
      3,
      undefined,
    ]);
    expect(map.size).toBe(3);
    expect(map.delete(`${shared}1`)).toBe(1);
    expect(map.get(`${shared}1`)).toBeUndefined();
    expect([...map]).toEqual([
      [`${shared}2`, 2],
      ['short', 3],
    ]);
  });
});

describe('RefreshTokens', () => {
  it('drops the expired tokens, earliest first, and only those', () => {
    const tokens = new RefreshTokens();
    const expiries = Array.from({ length: 2000 }, (_, i) => (i * 7919) % 2000);
    for (const [i, expiresAt] of expiries.entries()) tokens.add(`t${i}`, { userId: `u${i % 10}`, expiresAt });
    tokens.dropExpired(999);
    expect(tokens.size).toBe(1000);
    expect([...tokens].every(([, { expiresAt }]) => expiresAt > 999)).toBe(true);
  });

  it('forgets a token removed before it expires, and keeps one added again with a later expiry', () => {
    const tokens = new RefreshTokens([
      ['a', { userId: 'ann', expiresAt: 10 }],
      ['b', { userId: 'bob', expiresAt: 10 }],
    ]);
    tokens.delete('a');
    tokens.add('b', { userId: 'bob', expiresAt: 30 });
    tokens.dropExpired(20);
    expect([...tokens]).toEqual([['b', { userId: 'bob', expiresAt: 30 }]]);
  });

  it('removes every token of one user', () => {
    const tokens = new RefreshTokens();
    for (let i = 0; i < 5000; i++) tokens.add(`t${i}`, { userId: `u${i % 3}`, expiresAt: i });
    for (let i = 0; i < 4000; i += 2) tokens.delete(`t${i}`); // removed before expiry: the heap is rebuilt on the way
    expect(tokens.deleteOfUser('u1')).toHaveLength(
      [...Array(5000).keys()].filter((i) => i % 3 === 1 && (i >= 4000 || i % 2)).length,
    );
    expect([...tokens].some(([, { userId }]) => userId === 'u1')).toBe(false);
    tokens.dropExpired(4999);
    expect(tokens.size).toBe(0);
  });
});
