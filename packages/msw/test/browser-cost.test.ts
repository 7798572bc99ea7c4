// The size target of docs/msw.md#cost-in-a-browser-bundle, asserted: what @basekit/msw adds to a minimal browser app
// over msw alone, loaded with the page, gzip, bundled as the bench bundles it (`npm run bench -w @basekit/msw`, which
// prints the figures and the worker's ready time beside their targets).
import { expect, it } from 'vitest';
import { bundleApp, gzipTotal } from '../bench/bundle.js';

const CEILING_KB = 60;

it(`adds at most ${CEILING_KB} KB gzip to what loads with the page, and none of the Node server's code`, async () => {
  const plain = await bundleApp('bench/apps/plain-msw.ts');
  const basekit = await bundleApp('bench/apps/basekit-msw.ts');
  const added = gzipTotal(basekit.initial) - gzipTotal(plain.initial);
  expect(added / 1024, `${(added / 1024).toFixed(1)} KB added`).toBeLessThanOrEqual(CEILING_KB);
  // What only a server over a real network runs, or only a test asks for, is not fetched with the page.
  const initialInputs = basekit.initial.flatMap((chunk) => chunk.inputs);
  for (const part of [
    'network-guard.ts',
    'hosts.ts',
    'ffmpeg-options.ts',
    'exchange.ts',
    'masking.ts',
    // The management panel's database calls: listing and describing tables, importing rows, changing columns.
    'database/admin-calls.ts',
    'rows/import.ts',
    'tables/schema-changes.ts',
    // The counts a table description shows, kept once one was asked for; the projects admin API's calls.
    'tables/value-counts.ts',
    'projects/project-calls.ts',
    'projects/new-config.ts',
  ])
    expect(
      initialInputs.filter((input) => input.endsWith(part)),
      part,
    ).toEqual([]);
  expect(initialInputs.filter((input) => input.includes('node_modules/jose/'))).toEqual([]);
}, 120_000);
