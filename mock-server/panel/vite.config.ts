import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The panel is served by the reference server under /__admin/panel/ and built into panel/dist, which the package ships.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/__admin/panel/',
  // Preact's JSX through Vite's own transform: no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the shipped package: they would double its size.
    sourcemap: false,
  },
});
