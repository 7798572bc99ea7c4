// `npm run bench`: runs every `*.bench.ts` of this folder in its own process, one after another, so that
// one benchmark's heap and warm JIT do not colour the next. Each prints its own figures.
// `npm run bench -- database` runs only the files whose name contains "database".
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const run = spawnSync(
    process.execPath,
    ['--conditions=@basekit/source', '--import', 'tsx', '--expose-gc', join(here, file)],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
