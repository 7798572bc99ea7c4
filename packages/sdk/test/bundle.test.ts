// What an app's bundle gets of the SDK: the admin client (`@basekit/sdk/admin`) never comes along with the app's
// entries, and stands alone for the test code that imports it.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** An app of `contents` bundled for browsers, minified: its code and the SDK sources it holds. */
async function bundle(contents: string): Promise<{ code: string; sources: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: src, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
  });
  const sources = Object.keys(Object.values(result.metafile.outputs)[0]!.inputs);
  return { code: result.outputFiles[0]!.text, sources: sources.filter((input) => !input.includes('node_modules')) };
}

describe('the admin client in app bundles', () => {
  it.each([
    ['the whole SDK', `export * from './index.js';`],
    ['createClient', `import { createClient } from './index.js'; console.log(createClient);`],
    ['core + db', `export { createCore } from './core/index.js'; export * from './db/index.js';`],
  ])('is not in an app that imports %s', async (_name, contents) => {
    const { code, sources } = await bundle(contents);
    expect(sources.filter((source) => source.includes('admin/'))).toEqual([]);
    expect(code).not.toContain('/__admin');
  });

  it('stands alone on openapi-fetch and the core, with no session or area code', async () => {
    const { code, sources } = await bundle(`export * from './admin/index.js';`);
    expect(code).toContain('/__admin/requests/stream');
    expect(sources.map((source) => source.slice(source.indexOf('src/')))).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/src\/(auth|db|files|transcoder|leaderboards)\//)]),
    );
    expect(sources.some((source) => source.endsWith('core/session.ts'))).toBe(false);
  });
});
