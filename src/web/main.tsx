import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { findRoute } from '@common/routes';
import { App } from '@/app/app';
import { routePage } from '@/app/route-pages';
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
  const route = findRoute(window.location.pathname);
  const ready = route ? routePage(route).preload() : Promise.resolve();
  // A failed load still hydrates; the page's error boundary then explains and offers a reload.
  void ready.catch(() => undefined).then(() => hydrateRoot(container, app));
} else {
  createRoot(container).render(app);
}
