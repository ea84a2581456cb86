import path from 'node:path';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { lucideIconImports, manualChunks } from './vite.chunks';
import { pdfjsFontData } from './vite.pdfjs-fonts';
import { pwaOptions } from './vite.pwa';

// WEB_DIST_DIR lets parallel builds (and the server) use another directory.
const outDir = path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web');

export default defineConfig({
  root: path.resolve('src/web'),
  publicDir: path.resolve('src/web/public'),
  plugins: [
    lucideIconImports(),
    react(),
    tailwindcss(),
    pdfjsFontData(),
    VitePWA(pwaOptions(outDir)),
  ],
  resolve: {
    alias: {
      '@': path.resolve('src/web'),
      '@common': path.resolve('src/common'),
      // WORKAROUND(react-router-dev-build): react-router 7's package exports name only its
      // development build (warnings and their messages included); the production build in the
      // same package is about 0.5 KB gzip lighter in every page's first load (decision 0002).
      'react-router': path.resolve('node_modules/react-router/dist/production/index.mjs'),
    },
  },
  build: {
    outDir,
    emptyOutDir: true,
    sourcemap: false,
    // scripts/prerender.ts reads it to preload each page's chunks.
    manifest: true,
    // Every browser we support has <link rel="modulepreload">; the polyfill would only add to
    // every page's first load (decision 0002).
    modulePreload: { polyfill: false },
    // The documentation pages' icons as one file, not a dozen tiny ones (vite.chunks.ts).
    rollupOptions: { output: { manualChunks } },
  },
  server: {
    port: 5173,
  },
});
