import path from 'node:path';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: path.resolve('src/web'),
  publicDir: path.resolve('src/web/public'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@': path.resolve('src/web'),
      '@common': path.resolve('src/common'),
    },
  },
  build: {
    // WEB_DIST_DIR lets parallel builds (and the server) use another directory.
    outDir: path.resolve(process.env.WEB_DIST_DIR ?? 'dist/web'),
    emptyOutDir: true,
    sourcemap: false,
    // scripts/prerender.ts reads it to preload each page's chunks.
    manifest: true,
  },
  server: {
    port: 5173,
  },
});
