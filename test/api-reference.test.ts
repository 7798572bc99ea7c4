// `npm run docs` (typedoc.config.mjs, in `npm test`) refuses an export without an example: its plugin, run here on a
// small package of two exports, fails the build on the one that lacks it and names no other.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs typedoc as `npm run docs` does (the plugin, warnings as errors) on `source`; its exit code and output. */
function typedoc(source: string): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'basekit-typedoc-'));
  writeFileSync(join(dir, 'index.ts'), source);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true }, files: ['index.ts'] }));
  const args = [
    join(root, 'node_modules/typedoc/bin/typedoc'),
    ...['--plugin', join(root, 'scripts/typedoc-examples.mjs'), '--entryPoints', 'index.ts'],
    ...[
      '--name',
      'fixture',
      '--emit',
      'none',
      '--disableSources',
      '--treatWarningsAsErrors',
      '--validation.notDocumented',
    ],
  ];
  return new Promise((resolve) =>
    execFile(process.execPath, args, { cwd: dir }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    ),
  );
}

const documented =
  '/**\n * Adds.\n *\n * @example\n * add(1, 2); // 3\n */\nexport const add = (a: number, b: number) => a + b;\n';

it('fails on an export without an example, naming it, and on no other', async () => {
  const run = await typedoc(
    `${documented}/** Subtracts. */\nexport function sub(a: number, b: number) { return a - b; }\n`,
  );
  expect(run.output).toContain('sub has no @example');
  expect(run.output).not.toContain('add has no @example');
  expect(run.code).not.toBe(0);
}, 60_000);
