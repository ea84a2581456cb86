import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { findSiteRoute, isAppPath } from '@common/site-routes';
import { App } from '@/app/app';
import { routePage } from '@/app/route-pages';
import { loadAppLayout } from '@/app/site-layout';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

if (container.hasChildNodes()) {
  // Prerendered HTML: load this page's code first so hydration renders the same markup
  // synchronously and the visitor never sees the page flash or re-render.
  // An /app address has prerendered HTML only when the server answered with its not-found page.
  const { pathname } = window.location;
  const route = findSiteRoute(pathname);
  const ready = route
    ? routePage(route).preload()
    : isAppPath(pathname)
      ? loadAppLayout()
      : Promise.resolve();
  // A failed load still hydrates; the page's error boundary then explains and offers a reload.
  void ready.catch(() => undefined).then(() => hydrateRoot(container, app));
} else {
  // An /app page's own code starts loading now, beside the app's frame (decision 0185).
  if (isAppPath(window.location.pathname)) {
    const { pathname } = window.location;
    void import('@/app/app-page-preload')
      .then(({ preloadAppPage }) => preloadAppPage(pathname))
      .catch(() => undefined);
  }
  createRoot(container).render(app);
}
