// What an app's bundle gets of the SDK: the admin client (`@basekit/sdk/admin`) never comes along with the app's
// entries, and stands alone for the test code that imports it; a bundle for browsers carries none of Node's error codes.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** An app of `contents` bundled for browsers (or `platform`), minified: its code and the SDK sources it holds. */
async function bundle(
  contents: string,
  platform: 'browser' | 'node' = 'browser',
): Promise<{ code: string; sources: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: src, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    // The SDK's sources, with the conditions of package.json's `imports` as a bundler applies them to the package.
    conditions: ['@basekit/source'],
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

describe('network failures in app bundles', () => {
  const app = `export * from './index.js';`;

  it("leaves Node's error codes out of a bundle for browsers, whose fetch never gives them", async () => {
    const { code, sources } = await bundle(app);
    const failureSources = sources.filter((source) => source.includes('network-failure'));
    expect(failureSources.map((source) => source.replace(/.*\/src\//, ''))).toEqual([
      'core/network-failure.browser.ts',
    ]);
    for (const word of ['ECONNREFUSED', 'NODE_EXTRA_CA_CERTS', 'CERT_HAS_EXPIRED']) expect(code).not.toContain(word);
    expect(code).toContain('no reason given');
  });

  it('names them in a bundle for Node', async () => {
    const { code } = await bundle(app, 'node');
    for (const word of ['ECONNREFUSED', 'NODE_EXTRA_CA_CERTS', 'CERT_HAS_EXPIRED', 'no reason given'])
      expect(code).toContain(word);
  });
});
