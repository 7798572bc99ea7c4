// What @basekit/msw costs a browser app, beside msw alone, in one run (`npm run bench -w @basekit/msw`):
// (a) gzip bytes of a minimal app with msw's setupWorker vs the same app with createHandlers (target: at most
//     60 KB added), counting what loads with the page and listing lazy chunks apart;
// (b) time until worker.start() resolves in Chromium, engine creation and handler set-up included
//     (target: within 1.3x of msw alone). Both apps are bundled once and measured from the same bundles.
import { CHROMIUM, programPath } from '../../../test/support/programs.js';
import { bundleApp, gzipTotal, type Chunk } from './bundle.js';
import { measureReady } from './worker-ready.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 15);
const SIZE_TARGET_KB = 60;
const READY_TARGET_RATIO = 1.3;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** The packages (or `src` folders) a chunk holds, for a reader to tell the lazy chunks apart. */
const contentsOf = (chunk: Chunk) =>
  [...new Set(chunk.inputs.map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'own code'))].join(
    ', ',
  );

const plain = await bundleApp('bench/apps/plain-msw.ts');
const basekit = await bundleApp('bench/apps/basekit-msw.ts');
const added = gzipTotal(basekit.initial) - gzipTotal(plain.initial);

console.log('Bundle (esbuild: platform browser, ESM, minify, splitting; gzip level 9; 1 KB = 1024 B)\n');
console.log('| app | loads with the page | lazy chunks (loaded on demand) |\n|---|---|---|');
for (const [name, bundle] of [
  ['msw alone (setupWorker)', plain],
  ['msw + createHandlers from @basekit/msw', basekit],
] as const) {
  const lazy = bundle.lazy.map((chunk) => `${kb(chunk.gzipBytes)} (${contentsOf(chunk)})`).join('; ') || 'none';
  console.log(`| ${name} | ${kb(gzipTotal(bundle.initial))} in ${bundle.initial.length} chunk(s) | ${lazy} |`);
}
console.log(
  `\nadded by @basekit/msw: ${kb(added)} (target: at most ${SIZE_TARGET_KB} KB): ${verdict(added <= SIZE_TARGET_KB * 1024)}\n`,
);

const reports = await measureReady(
  { plain: [...plain.initial, ...plain.lazy], basekit: [...basekit.initial, ...basekit.lazy] },
  ROUNDS,
);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (values: number[]) => `${Math.round(median(values))} ms`;

console.log(
  `Worker ready in Chromium (${programPath(CHROMIUM)}, a fresh context per visit, ${ROUNDS} rounds, medians)\n`,
);
console.log(
  '| page | worker.start() resolved, since navigation | bundle loaded | handlers set up | worker.start() | rounds (ms) |',
);
console.log('|---|---|---|---|---|---|');
for (const [name, list] of [
  ['msw alone', reports['plain']!],
  ['msw + @basekit/msw', reports['basekit']!],
] as const) {
  const columns = [
    list.map((r) => r.ready),
    list.map((r) => r.loaded),
    list.map((r) => r.created - r.loaded),
    list.map((r) => r.ready - r.created),
  ];
  console.log(`| ${name} | ${columns.map(ms).join(' | ')} | ${list.map((r) => Math.round(r.ready)).join(', ')} |`);
}
const ratio = median(reports['basekit']!.map((r) => r.ready)) / median(reports['plain']!.map((r) => r.ready));
console.log(
  `\nratio: ${ratio.toFixed(2)}x (target: within ${READY_TARGET_RATIO}x): ${verdict(ratio <= READY_TARGET_RATIO)}`,
);
