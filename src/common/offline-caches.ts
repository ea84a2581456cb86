/**
 * Cache Storage names shared by the service worker's configuration (vite.pwa.ts) and the page
 * that hands the worker what it loaded before the worker existed
 * (src/web/app/offline/service-worker.ts).
 */
export const PAGES_CACHE = 'lyceum-pages';
export const ASSETS_CACHE = 'lyceum-assets';
/** The app shell's address: the server answers every /app page with it. */
export const APP_SHELL_URL = '/app';
