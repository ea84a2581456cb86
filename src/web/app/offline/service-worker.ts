/**
 * Registers the service worker Workbox generates (vite.pwa.ts, decision 0180) and offers a
 * reload when a new version has been deployed. Loaded by the frame once the browser is idle,
 * so no page carries it in its first load; sonner loads only to show the notice (decision 0190).
 */
import { APP_SHELL_URL, ASSETS_CACHE, PAGES_CACHE } from '@common/offline-caches';
import { requestToaster } from '@/lib/toaster-demand';

const UPDATE_TOAST_ID = 'app-update';

export async function registerServiceWorker(): Promise<void> {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  offerUpdates(registration);
  await navigator.serviceWorker.ready;
  await keepWhatThisPageLoaded();
}

/**
 * The worker only sees requests made after it started, so the page hands it the files it
 * already loaded (from the browser's HTTP cache, no download) and itself: reloading this page
 * offline then works from the first visit.
 */
async function keepWhatThisPageLoaded(): Promise<void> {
  await keepLoadedAssets();
  if (location.pathname === APP_SHELL_URL || location.pathname.startsWith(`${APP_SHELL_URL}/`)) {
    return;
  }
  const pages = await caches.open(PAGES_CACHE);
  const page = location.origin + location.pathname + location.search;
  // A page that answers with an error (the not-found page) is not kept: add() refuses it.
  if (!(await pages.match(page))) await pages.add(page).catch(() => undefined);
}

/**
 * Keeps every script and stylesheet this page has loaded so far in the assets cache: the
 * screens a learner made available offline then open without a network even when they were
 * loaded before the worker took control (decision 0181). Each file is copied from the
 * browser's HTTP cache (`only-if-cached`), where the page's own load has just put it, so
 * nothing is downloaded a second time (decision 0184); only a file the HTTP cache no longer
 * holds is fetched.
 */
export async function keepLoadedAssets(): Promise<void> {
  if (!('caches' in window)) return;
  const sameOriginAssets = new Set(
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.href),
  );
  const assets = await caches.open(ASSETS_CACHE);
  await Promise.allSettled(
    [...sameOriginAssets].map(async (url) => {
      if (await assets.match(url)) return;
      const cached = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).catch(
        () => null,
      );
      if (cached?.ok) await assets.put(url, cached);
      else await assets.add(url);
    }),
  );
}

function offerUpdates(registration: ServiceWorkerRegistration): void {
  // Only an update waits behind a controlling worker; the first install just takes over later.
  const offer = async (worker: ServiceWorker) => {
    if (!navigator.serviceWorker.controller) return;
    const { toast } = await import('sonner');
    requestToaster();
    toast('A new version of Lyceum is available.', {
      id: UPDATE_TOAST_ID,
      description: 'Reload to use it. Anything you typed on this page may be lost.',
      duration: Number.POSITIVE_INFINITY,
      action: {
        label: 'Reload',
        onClick: () => {
          navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), {
            once: true,
          });
          worker.postMessage({ type: 'SKIP_WAITING' });
        },
      },
    });
  };
  // Offline without sonner cached, the notice waits for the next update check.
  const offerOrWait = (worker: ServiceWorker) => void offer(worker).catch(() => undefined);
  const offerOnceInstalled = (installing: ServiceWorker | null) =>
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offerOrWait(installing);
    });
  if (registration.waiting) offerOrWait(registration.waiting);
  // An update found before this page listened (registering checks for one too) is still
  // installing: without this its notice would wait for the next check.
  offerOnceInstalled(registration.installing);
  registration.addEventListener('updatefound', () => offerOnceInstalled(registration.installing));
  // A visitor who leaves the tab open for days still hears about a deployment when they return.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void registration.update().catch(() => undefined);
  });
}
