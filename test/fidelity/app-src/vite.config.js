// Builds the code-split app into test/fidelity/pages/app/ (committed): `make fidelity-app`.
// Stable file names (no hashes) so the suite can serve the charts chunk late by its path.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  logLevel: 'warn',
  build: {
    outDir: path.resolve(import.meta.dirname, '../pages/app'),
    emptyOutDir: true,
    minify: true,
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name].js',
        chunkFileNames: 'assets/[name].js',
        assetFileNames: 'assets/[name][extname]',
      },
    },
  },
});
