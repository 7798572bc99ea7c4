import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

/** hls.js, loaded on Play on the transcoder page. */
const HLS = /[\\/]node_modules[\\/]hls\.js[\\/]/;
/** The data grid and the database page, loaded with that page. */
const GRID = /[\\/]panel[\\/]src[\\/](components[\\/](grid[\\/]|popover)|pages[\\/]database)/;
/** The request inspector, loaded with the Requests page. */
const REQUESTS = /[\\/]panel[\\/]src[\\/]pages[\\/]requests/;

// The panel is served by the reference server under /__admin/panel/ and built into the server's package
// (mock-server/panel/dist), which ships it: the published server never depends on this private workspace.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/__admin/panel/',
  // The SDK (its admin client and transport) from its sources, as the tests take it: a build never bundles a stale dist/.
  resolve: { conditions: ['@basekit/source', ...defaultClientConditions] },
  // Preact's JSX through Vite's own transform: no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../../mock-server/panel/dist',
    emptyOutDir: true,
    // No source maps in the shipped package: they would double its size.
    sourcemap: false,
    // The pages in one chunk, hls.js (the transcoder's player) in its own, loaded on Play: one chunk compresses to
    // about 30 KB gzip where a chunk per page took 38 KB, which keeps the whole build with hls.js under 150 KB. The
    // data grid and the database page are a chunk of their own too, loaded with that page, and so is the request
    // inspector with the Requests page, so that the first load stays under 40 KB. Groups are taken by priority: what
    // the panel shares with the grid or the inspector (Preact, the SDK, the virtual rows) is the panel's.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'hls', test: HLS, priority: 3 },
            { name: 'panel', test: (id) => !HLS.test(id) && !GRID.test(id) && !REQUESTS.test(id), priority: 2 },
            { name: 'grid', test: GRID, priority: 1 },
            { name: 'requests', test: REQUESTS, priority: 1 },
          ],
        },
      },
    },
  },
});
