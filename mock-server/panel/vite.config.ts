import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

// The panel is served by the reference server under /__admin/panel/ and built into panel/dist, which the package ships.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/__admin/panel/',
  // The SDK (its admin client and transport) from its sources, as the tests take it: a build never bundles a stale dist/.
  resolve: { conditions: ['@basekit/source', ...defaultClientConditions] },
  // Preact's JSX through Vite's own transform: no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the shipped package: they would double its size.
    sourcemap: false,
    // The pages in one chunk, hls.js (the transcoder's player) in its own, loaded on Play: one chunk compresses to
    // about 30 KB gzip where a chunk per page took 38 KB, which keeps the whole build with hls.js under 150 KB.
    rollupOptions: { output: { manualChunks: (id) => (id.includes('/node_modules/hls.js/') ? 'hls' : 'panel') } },
  },
});
