// The rules of biome.json that keep the architecture, each caught on a planted violation: the repository's own lint
// config is copied into a scratch tree laid out like the repository, with files that break each rule (and files that
// may do the same thing where they are), and biome's findings are compared with what must be found.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');

const PLANTED: Record<string, string> = {
  // A run-time cycle inside an area, and a type-only cycle in another package.
  'packages/engine/src/areas/x/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
  'packages/engine/src/areas/x/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
  'packages/sdk/src/t1.ts': "import type { T2 } from './t2.js';\nexport interface T1 {\n  t2?: T2;\n}\n",
  'packages/sdk/src/t2.ts': "import type { T1 } from './t1.js';\nexport interface T2 {\n  t1?: T1;\n}\n",
  // Node-only imports and globals in the engine and in @basekit/msw.
  'packages/engine/src/shared/node-only.ts': [
    "import { readFile } from 'node:fs';",
    "import { serve } from '@hono/node-server';",
    "import sharp from 'sharp';",
    "import { startServer } from '@basekit/mock-server';",
    "import { ffmpegRunner } from '../../../../mock-server/src/transcoder/ffmpeg-runner.js';",
    'export const x = [readFile, serve, sharp, startServer, ffmpegRunner, process.env, Buffer.alloc(1)];',
    '',
  ].join('\n'),
  'packages/msw/src/node-only.ts':
    "import { join } from 'node:path';\nimport { setupServer } from 'msw/node';\nexport const y = [join, setupServer];\n",
  // The platform's clock and random source in an area (line by line); a given date is fine.
  'packages/engine/src/areas/x/clock.ts': [
    'export const r = [',
    '  Math.random(),',
    '  Date.now(),',
    '  new Date(),',
    '  performance.now(),',
    '  crypto.getRandomValues(new Uint8Array(1)),',
    '  globalThis.crypto,',
    '  new Date(0),',
    '];',
    'export const draw = (random = Math.random) => random();',
    '',
  ].join('\n'),
  // Allowed where they are: the engine's shared parts read the platform's clock, the Node server and the engine's
  // tests use Node.
  'packages/engine/src/shared/clock.ts': 'export const now = () => Date.now() + performance.now();\n',
  'mock-server/src/node.ts':
    "import { readFile } from 'node:fs';\nexport const z = [readFile, Date.now(), process.env];\n",
  'packages/engine/test/node-support.ts': "import { readFileSync } from 'node:fs';\nexport const t = readFileSync;\n",
};

const EXPECTED = [
  'lint/suspicious/noImportCycles packages/engine/src/areas/x/a.ts:1',
  'lint/suspicious/noImportCycles packages/engine/src/areas/x/b.ts:1',
  'lint/suspicious/noImportCycles packages/sdk/src/t1.ts:1',
  'lint/suspicious/noImportCycles packages/sdk/src/t2.ts:1',
  'lint/correctness/noNodejsModules packages/engine/src/shared/node-only.ts:1',
  'lint/style/noRestrictedImports packages/engine/src/shared/node-only.ts:2',
  'lint/style/noRestrictedImports packages/engine/src/shared/node-only.ts:3',
  'lint/style/noRestrictedImports packages/engine/src/shared/node-only.ts:4',
  'lint/style/noRestrictedImports packages/engine/src/shared/node-only.ts:5',
  'lint/style/noRestrictedGlobals packages/engine/src/shared/node-only.ts:6',
  'lint/style/noRestrictedGlobals packages/engine/src/shared/node-only.ts:6',
  'lint/correctness/noNodejsModules packages/msw/src/node-only.ts:1',
  'lint/style/noRestrictedImports packages/msw/src/node-only.ts:2',
  'plugin packages/engine/src/areas/x/clock.ts:2',
  'plugin packages/engine/src/areas/x/clock.ts:3',
  'plugin packages/engine/src/areas/x/clock.ts:4',
  'lint/style/noRestrictedGlobals packages/engine/src/areas/x/clock.ts:5',
  'lint/style/noRestrictedGlobals packages/engine/src/areas/x/clock.ts:6',
  'plugin packages/engine/src/areas/x/clock.ts:7',
  'plugin packages/engine/src/areas/x/clock.ts:10',
];

let scratch: string;
let found: string[];

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'basekit-lint-'));
  cpSync(join(ROOT, 'biome.json'), join(scratch, 'biome.json'));
  cpSync(join(ROOT, 'lint'), join(scratch, 'lint'), { recursive: true });
  for (const [path, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
  const run = spawnSync(process.execPath, [BIOME, 'lint', '--vcs-enabled=false', '--reporter=github', '.'], {
    cwd: scratch,
    encoding: 'utf8',
  });
  // `::error title=<rule>,file=<path>,line=<n>,...::<message>`, one line per error (notices are style hints).
  found = [...run.stdout.matchAll(/^::error title=([^,]+),file=([^,]+),line=(\d+),/gm)]
    .map(([, rule, file, line]) => `${rule} ${file!.slice(scratch.length + 1)}:${line}`)
    .sort();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the architecture rules of npm run lint', () => {
  it('find every planted import cycle, Node-only import or global, and platform clock or random source in an area', () => {
    expect(found).toEqual([...EXPECTED].sort());
  });

  it('leave alone what is allowed where it is (shared parts, the Node server, tests, a given date)', () => {
    const allowed = [
      'packages/engine/src/shared/clock.ts',
      'mock-server/src/node.ts',
      'packages/engine/test/node-support.ts',
    ];
    expect(found.filter((finding) => allowed.some((file) => finding.includes(` ${file}:`)))).toEqual([]);
    expect(found.filter((finding) => finding.endsWith('clock.ts:8'))).toEqual([]);
  });
});
