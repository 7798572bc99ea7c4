// A package's prepack, before `tsc -b`: removes from dist/ what was built from sources that no longer exist (tsc
// never deletes an output), so that `npm pack` ships only the build of the current sources. Runs in the package's
// folder. Outputs of sources that exist stay, so tests using dist/ at the same time are never disturbed.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const OUTPUT = /\.(js|d\.ts)(\.map)?$/;

if (existsSync('dist')) {
  for (const entry of readdirSync('dist', { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !OUTPUT.test(entry.name)) continue;
    const output = join(entry.parentPath, entry.name);
    if (!existsSync(join('src', relative('dist', output)).replace(OUTPUT, '.ts'))) rmSync(output);
  }
}
