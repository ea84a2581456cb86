/**
 * The installable app: its web app manifest and the service worker Workbox generates
 * (decision 0180). What the worker may answer from its caches, and what it never touches:
 *
 * - precached at install: the app shell (served for every /app address, online or not) with
 *   the entry script and stylesheet it names, the favicon and the icons; nothing else, so a
 *   visitor's first visit does not download pages they never open;
 * - public pages: network first, the cached copy only when the network fails (offline), so a
 *   page is never shown stale to someone online; a page never visited falls back to the shell;
 * - hashed assets (`/assets/…`): cache first, since a hashed file never changes;
 * - everything else (auth, REST, storage, functions, realtime, metrics) goes to the network
 *   untouched: a stale session, figure or grant would mislead.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { VitePWAOptions } from 'vite-plugin-pwa';
import { brand } from './src/common/brand';
import { APP_SHELL_URL, ASSETS_CACHE, PAGES_CACHE } from './src/common/offline-caches';

/** The files the built shell (index.html before prerendering) loads: entry script, CSS. */
function shellAssets(outDir: string): Set<string> {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((match) => match[1]!);
  return new Set(urls);
}

export function pwaOptions(outDir: string): Partial<VitePWAOptions> {
  return {
    registerType: 'prompt',
    // Registered by the notification area after the page is interactive, not by a script in
    // every page's first load (src/web/app/offline/service-worker.ts).
    injectRegister: false,
    manifest: {
      id: '/app',
      name: brand.headerTitle,
      short_name: brand.product,
      description: brand.tagline,
      start_url: '/app',
      scope: '/',
      display: 'standalone',
      theme_color: '#1d3461',
      background_color: '#ffffff',
      lang: 'en',
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    workbox: {
      // The manifest's icons are added by the plugin itself.
      globPatterns: ['index.html', 'favicon.svg', 'apple-touch-icon.png', 'assets/*.{js,css}'],
      manifestTransforms: [
        (entries) => {
          const shell = shellAssets(outDir);
          const manifest = entries
            .filter((entry) => !entry.url.startsWith('assets/') || shell.has(entry.url))
            // index.html is still the shell when the worker is generated; the prerenderer
            // later writes the home page there and keeps the shell as /app's answer.
            .map((entry) =>
              entry.url === 'index.html' ? { ...entry, url: APP_SHELL_URL } : entry,
            );
          return { manifest, warnings: [] };
        },
      ],
      navigateFallback: APP_SHELL_URL,
      navigateFallbackAllowlist: [/^\/app(?:\/|$)/],
      cleanupOutdatedCaches: true,
      runtimeCaching: [
        {
          urlPattern: ({ request, url }) =>
            request.mode === 'navigate' && !url.pathname.startsWith('/app'),
          handler: 'NetworkFirst',
          options: {
            cacheName: PAGES_CACHE,
            networkTimeoutSeconds: 5,
            expiration: { maxEntries: 60 },
            precacheFallback: { fallbackURL: APP_SHELL_URL },
          },
        },
        {
          urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
          handler: 'CacheFirst',
          options: {
            cacheName: ASSETS_CACHE,
            expiration: { maxEntries: 400, maxAgeSeconds: 60 * 60 * 24 * 30 },
          },
        },
      ],
    },
  };
}
