/**
 * Runs after `vite build`: writes the HTML of every public route so the first response already
 * has its title, description, canonical link and text (see docs/decisions/0001).
 *
 *   <dist>/index.html            "/"
 *   <dist>/<path>/index.html     every other route with `prerender: true`
 *   <dist>/404.html              the not-found page (served with status 404)
 *   <dist>/app.html              the empty shell for routes that render only in the browser
 *
 * The app is rendered through Vite's SSR loader so import.meta.glob and the `@/` aliases
 * behave exactly as in the browser bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createServer } from 'vite';
import { loadConfig } from '../src/server/config';
import { routeDescription } from '../src/common/route-descriptions';
import { notFoundTitle, routes } from '../src/common/routes';
import { routeModules } from '../src/web/app/page-modules';
import {
  inlineStylesheets,
  isTemplate,
  pagePreloads,
  renderDocument,
  type Manifest,
} from '../src/web/app/prerender-html';

interface EntryServer {
  renderPage: (path: string) => Promise<string>;
}

const NOT_FOUND_PROBE = '/__lyceum-not-found__';

async function main() {
  const started = performance.now();
  const config = loadConfig();
  const distDir = config.webDistDir;
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: run \`vite build\` (with build.manifest) first.`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;

  // A second run after a build reuses the pristine shell saved by the first.
  const appShellFile = path.join(distDir, 'app.html');
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.readFileSync(indexFile, 'utf8');
  const shell = isTemplate(built) ? built : fs.readFileSync(appShellFile, 'utf8');
  fs.writeFileSync(appShellFile, shell);
  // Prerendered pages carry their CSS inline; the shell keeps the cacheable link.
  const template = inlineStylesheets(shell, (href) =>
    fs.readFileSync(path.join(distDir, href), 'utf8'),
  );

  const vite = await createServer({
    configFile: path.resolve('vite.config.ts'),
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    appType: 'custom',
    logLevel: 'error',
    optimizeDeps: { noDiscovery: true, include: [] },
  });

  try {
    const { renderPage } = (await vite.ssrLoadModule('/app/entry-server.tsx')) as EntryServer;
    let count = 0;
    for (const route of routes.filter((entry) => entry.prerender)) {
      const body = await renderPage(route.path);
      const html = renderDocument(
        template,
        {
          title: route.title,
          description: routeDescription(route.path),
          canonical: routeDescription(route.path)
            ? `${config.siteUrl ?? ''}${route.path}`
            : undefined,
          modulePreloads: pagePreloads(manifest, routeModules(route)),
        },
        body,
      );
      const file =
        route.path === '/' ? indexFile : path.join(distDir, route.path.slice(1), 'index.html');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, html);
      count += 1;
    }

    const notFound = await renderPage(NOT_FOUND_PROBE);
    fs.writeFileSync(
      path.join(distDir, '404.html'),
      renderDocument(template, { title: notFoundTitle, noindex: true }, notFound),
    );

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `prerendered ${count} routes, 404.html and app.html into ${distDir} in ${seconds}s`,
    );
  } finally {
    await vite.close();
  }
}

main().catch((error: unknown) => {
  console.error('Prerendering failed:', error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
