import * as esbuild from 'esbuild';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** One output file of an app bundle. */
export interface Chunk {
  /** The path the page loads it from: `/app.js`, `/chunk-ABC.js`. */
  path: string;
  contents: Uint8Array;
  /** Gzip level 9, as a server would send it. */
  gzipBytes: number;
  /** The source files it holds (paths relative to this package). */
  inputs: string[];
}

/** An app bundled as a browser app would be: what loads with the page, and what only on demand. */
export interface AppBundle {
  /** The entry chunk and every chunk it imports statically, transitively. */
  initial: Chunk[];
  /** Chunks reached only through a dynamic `import()`. */
  lazy: Chunk[];
}

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const mswSource = fileURLToPath(new URL('../src/index.ts', import.meta.url));

// @basekit/msw is taken from its sources, and the engine from its sources through the @basekit/source condition,
// so the figures are those of the code as it is now, built or not.
const sourcesPlugin: esbuild.Plugin = {
  name: 'basekit-msw-sources',
  setup(build) {
    build.onResolve({ filter: /^@basekit\/msw$/ }, () => ({ path: mswSource }));
  },
};

/**
 * Bundles `entry` (output `/app.js`) with esbuild for browsers: ESM, minified, split into chunks, in memory.
 *
 * @example
 * const { initial, lazy } = await bundleApp('bench/apps/plain-msw.ts');
 */
export async function bundleApp(entry: string): Promise<AppBundle> {
  const outdir = resolve(packageRoot, 'bench-out'); // never written: esbuild needs it to name the chunks
  const result = await esbuild.build({
    entryPoints: { app: resolve(packageRoot, entry) },
    absWorkingDir: packageRoot,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    splitting: true,
    outdir,
    write: false,
    metafile: true,
    conditions: ['@basekit/source'],
    plugins: [sourcesPlugin],
    logLevel: 'warning',
  });
  const chunks = new Map<string, Chunk>();
  const staticImports = new Map<string, string[]>();
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    const contents = result.outputFiles.find((file) => file.path === resolve(packageRoot, output))!.contents;
    chunks.set(output, {
      path: `/${output.slice(output.lastIndexOf('/') + 1)}`,
      contents,
      gzipBytes: gzipSync(contents, { level: 9 }).length,
      inputs: Object.keys(meta.inputs),
    });
    staticImports.set(
      output,
      meta.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path),
    );
  }
  // Chunks of dynamic imports have an entryPoint too: the page's entry is the one named `app`.
  const pending = [relative(packageRoot, resolve(outdir, 'app.js'))];
  const initial = new Set<string>();
  for (let output = pending.pop(); output !== undefined; output = pending.pop()) {
    if (initial.has(output)) continue;
    initial.add(output);
    pending.push(...staticImports.get(output)!);
  }
  return {
    initial: [...initial].map((output) => chunks.get(output)!),
    lazy: [...chunks].filter(([output]) => !initial.has(output)).map(([, chunk]) => chunk),
  };
}

/** The gzip bytes of some chunks together. */
export const gzipTotal = (chunks: Chunk[]) => chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
