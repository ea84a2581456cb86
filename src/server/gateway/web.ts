/**
 * Serves the built web app. Hashed assets are cached for a year; HTML is revalidated.
 * Known routes answer 200 with their prerendered HTML (or the app shell); anything else
 * answers 404 with the app's not-found page, so crawlers and clients see the real status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { findRoute, normalizePath } from '../../common/routes';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** Types Hono's table lacks or gives without a charset. */
const MEDIA_TEXT_TYPES: Record<string, string> = {
  '.vtt': 'text/vtt; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The normalised path, or undefined for malformed percent-encoding (answered with 404). */
function decodePath(rawPath: string): string | undefined {
  try {
    return normalizePath(decodeURIComponent(rawPath));
  } catch {
    return undefined;
  }
}

export function webRoutes(distDir: string) {
  const app = new Hono();
  const relativeRoot = path.relative(process.cwd(), distDir) || '.';

  function readHtml(file: string): string | undefined {
    try {
      return fs.readFileSync(path.join(distDir, file), 'utf8');
    } catch {
      return undefined;
    }
  }

  app.use(
    '/assets/*',
    serveStatic({
      root: relativeRoot,
      // The build writes each script's and stylesheet's gzip copy once (decision 0037).
      precompressed: true,
      onFound: (_path, c) => c.header('Cache-Control', IMMUTABLE),
    }),
  );

  // Recorded media (the coach's walkthrough video, its poster, captions and transcript):
  // byte ranges for seeking, and the caption and text types the browser needs to use them.
  app.use(
    '/media/*',
    serveStatic({
      root: relativeRoot,
      onFound: (file, c) => {
        c.header('Cache-Control', 'public, max-age=3600');
        c.header('Accept-Ranges', 'bytes');
        const type = MEDIA_TEXT_TYPES[path.extname(file)];
        if (type) c.header('Content-Type', type);
      },
    }),
  );

  app.get('*', async (c, next) => {
    const pathname = decodePath(new URL(c.req.url).pathname);
    // Public files (favicon, robots.txt, manifest) by exact name. The HTML files are pages
    // and are only reachable through their routes, with the right status.
    if (pathname && /^\/[\w.-]+\.\w+$/.test(pathname) && !pathname.endsWith('.html')) {
      const file = path.join(distDir, pathname);
      if (fs.existsSync(file) && fs.statSync(file).isFile()) {
        return serveStatic({
          root: relativeRoot,
          // The service worker is checked on every visit so a deployment reaches visitors.
          onFound: (_p, ctx) =>
            ctx.header(
              'Cache-Control',
              pathname === '/sw.js' ? REVALIDATE : 'public, max-age=3600',
            ),
        })(c, next);
      }
    }
    c.header('Cache-Control', REVALIDATE);
    const route = pathname ? findRoute(pathname) : undefined;
    if (route) {
      // App pages (with parameters such as /app/courses/<id>) render in the browser only.
      const prerendered = !route.prerender
        ? undefined
        : route.path === '/'
          ? readHtml('index.html')
          : readHtml(path.join(route.path.slice(1), 'index.html'));
      const html = prerendered ?? readHtml('app.html') ?? readHtml('index.html');
      if (!html) return c.text('The web app is not built. Run `npm run build`.', 503);
      return c.html(html, 200);
    }
    const notFound = readHtml('404.html') ?? readHtml('app.html') ?? readHtml('index.html');
    if (!notFound) return c.text('Not found', 404);
    return c.html(notFound, 404);
  });

  return app;
}
