import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { servicePath } from '../src/shared/http/path.js';

/** The rule in one step: every run of `/` read as one, a trailing `/` dropped. */
const byRule = (pathname: string) => pathname.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');

describe('servicePath', () => {
  it('reads runs of / as one and drops a trailing /', () => {
    expect(servicePath('//bucket/dir//a.txt/')).toBe('/bucket/dir/a.txt');
    expect(servicePath('/auth/login/')).toBe('/auth/login');
    expect(servicePath('/auth//users/get-number-of-user/')).toBe('/auth/users/get-number-of-user');
    expect(servicePath('/')).toBe('/');
    expect(servicePath('//')).toBe('/');
    expect(servicePath('')).toBe('');
  });

  it('gives what the rule gives for any path of / and letters (its shortcut for clean paths included)', () => {
    const path = fc.array(fc.constantFrom('/', 'a', 'b'), { maxLength: 10 }).map((chars) => chars.join(''));
    fc.assert(fc.property(path, (p) => servicePath(p) === byRule(p)));
  });
});
