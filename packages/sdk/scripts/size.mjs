// Measures what the SDK adds to an app's bundle: minified and gzipped. Bundles the built ESM (dist/) for browsers
// with esbuild (so package.json's `browser` conditions apply, as in an app's bundler) and prints a Markdown table
// with the share of the one dependency, openapi-fetch, read from esbuild's metafile, each bundle beside its target
// (the whole SDK under 15 KB, one area with the core under 6 KB). 1 KB = 1024 B.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '../dist');

const KB = 1024;
const WHOLE_TARGET = 15 * KB;
const AREA_TARGET = 6 * KB;

const entries = {
  'whole SDK (`createClient`, every export)': `export * from './index.js';`,
  'core + auth': `export { createCore } from './core/index.js'; export { createAuth } from './auth/index.js';`,
  'core + db': `export { createCore } from './core/index.js'; export * from './db/index.js';`,
  'core + files': `export { createCore } from './core/index.js'; export * from './files/index.js';`,
  'core + transcoder': `export { createCore } from './core/index.js'; export * from './transcoder/index.js';`,
  'core + leaderboards': `export { createCore } from './core/index.js'; export * from './leaderboards/index.js';`,
  // Test code's, never an app's: test/bundle.test.ts checks that none of it comes along with the entries above.
  'admin client (`@basekit/sdk/admin`)': `export * from './admin/index.js';`,
};

export async function measure() {
  const sizes = {};
  for (const [name, contents] of Object.entries(entries)) {
    const result = await build({
      stdin: { contents, resolveDir: dist, loader: 'js' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      metafile: true,
    });
    const code = result.outputFiles[0].contents;
    const [output] = Object.values(result.metafile.outputs);
    const transport =
      Object.entries(output.inputs).find(([input]) => input.includes('openapi-fetch'))?.[1].bytesInOutput ?? 0;
    sizes[name] = { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, transport };
  }
  return sizes;
}

/** The target of a bundle: the whole SDK's, one area's; none for the admin client (test code only). */
const targetOf = (name) =>
  name.startsWith('whole') ? WHOLE_TARGET : name.startsWith('core +') ? AREA_TARGET : undefined;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const kb = (bytes) => `${(bytes / KB).toFixed(2)} KB (${bytes} B)`;
  console.log('| bundle | minified | of which openapi-fetch | minified + gzip | target |\n|---|---|---|---|---|');
  for (const [name, { minified, transport, gzipped }] of Object.entries(await measure())) {
    const target = targetOf(name);
    const verdict = target === undefined ? '' : `${gzipped < target ? 'within' : 'OVER'} ${target / KB} KB`;
    console.log(`| ${name} | ${kb(minified)} | ${kb(transport)} | ${kb(gzipped)} | ${verdict} |`);
  }
}
