import * as esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const nodeBuiltins = new Set(builtinModules);

it('bundles for the browser without any Node built-in', async () => {
  const nodeImports: string[] = [];
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'no-node-builtins',
        setup(build) {
          build.onResolve({ filter: /.*/ }, ({ path, importer }) => {
            if (path.startsWith('node:') || nodeBuiltins.has(path.split('/')[0]!)) {
              nodeImports.push(`${path} (from ${importer})`);
              return { path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  });
  expect(nodeImports).toEqual([]);
  expect(result.errors).toEqual([]);
  // The engine is inside: its error catalogue's messages are in the bundle.
  expect(result.outputFiles[0]!.text).toContain('no such operation');
}, 60_000);

it("loads the SDK's admin client, on which the controls are built, only with the first control call", async () => {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    outdir: 'out',
    write: false,
    logLevel: 'silent',
    conditions: ['@basekit/source'],
  });
  const [main, ...lazy] = result.outputFiles.sort(
    (a, b) => Number(b.path.endsWith('/index.js')) - Number(a.path.endsWith('/index.js')),
  );
  expect(main!.path).toMatch(/\/index\.js$/);
  expect(main!.text).not.toContain('/__admin/requests/stream');
  expect(lazy.some((chunk) => chunk.text.includes('/__admin/requests/stream'))).toBe(true);
}, 60_000);
