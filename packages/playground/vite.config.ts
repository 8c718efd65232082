import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// Built into dist/ (scripts/install.sh runs it); the service serves it under /playground.
export default defineConfig({
  base: '/playground/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline assets: the page's CSP allows scripts and styles from this origin only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
