// Tests run the SDK's sources, never a `dist/` that may be stale: under Vitest every entry of package.json's
// exports, and its internal `#network-failure`, resolves through the `@basekit/source` condition to the very module
// the tests import by path (a module imported twice from one file is one module).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, Record<string, unknown>>;
};
const entries = Object.entries(manifest.exports)
  .filter(([, targets]) => typeof targets['@basekit/source'] === 'string')
  .map(([subpath, targets]) => [subpath, targets['@basekit/source'] as string]);

describe('the SDK in tests', () => {
  it('has an entry for each area, the core, the admin client and the whole', () => {
    expect(entries.map(([subpath]) => subpath)).toEqual([
      '.',
      './core',
      './auth',
      './db',
      './files',
      './transcoder',
      './leaderboards',
      './admin',
    ]);
  });

  it.each(entries)('imports %s from its sources (%s)', async (subpath, source) => {
    const specifier = `@basekit/sdk${subpath.slice(1)}`;
    const fromSource = await import(/* @vite-ignore */ new URL(`../${source}`, import.meta.url).href);
    expect(await import(/* @vite-ignore */ specifier)).toBe(fromSource);
  });

  it("takes Node's network-failure messages from their sources", async () => {
    expect(await import('#network-failure')).toBe(await import('../src/core/network-failure.js'));
  });
});
