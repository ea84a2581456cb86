/**
 * Page weight of the production build: the JavaScript and CSS (gzip) a browser must load
 * before the app first renders, for the home page and for a documentation page. Follows the
 * built HTML's module graph: the entry script, its modulepreloads (the page's own chunks,
 * added by scripts/prerender.ts), stylesheets, and every static import of those files.
 * Dynamic imports (other pages, the data-room dialog, the toaster) are not counted.
 *
 * A learning-app page (`/app…`, rendered in the browser only) is measured from the build's
 * manifest instead: the entry chunk, the app frame, the query client, the page loaders and
 * the route's own page module (from src/web/app/app-pages.ts), each with its static imports.
 * The readers' libraries (pdf.js, foliate-js) must never be among them: that fails the run.
 *
 * With `--until-idle`, public pages are also opened in headless Chromium, served by the real
 * server, as a first-time visitor (no consent choice stored, so the consent banner shows) and
 * every script the page fetched until the network was idle is counted by its transferred size
 * (gzip body and response headers, as Lighthouse's transferSize): lazily loaded chunks count
 * too. That is the figure issue 18 budgets (120 KB).
 *
 *   npm run build && node --import tsx bench/page-weight.ts [--until-idle] [path…]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { loadConfig } from '../src/server/config';
import { findRoute } from '../src/common/routes';

export const DOC_PAGE_BUDGET_KB = 120;

export interface Asset {
  file: string;
  kind: 'js' | 'css';
  gzipBytes: number;
}

function htmlFor(distDir: string, pathname: string): string {
  const route = findRoute(pathname);
  if (!route) throw new Error(`${pathname} is not a route of src/common/routes.ts`);
  const file = !route.prerender
    ? 'app.html'
    : route.path === '/'
      ? 'index.html'
      : path.join(route.path.slice(1), 'index.html');
  const full = path.join(distDir, file);
  if (!fs.existsSync(full)) throw new Error(`${full} is missing: run \`npm run build\` first.`);
  return fs.readFileSync(full, 'utf8');
}

function attributeValues(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)].map((match) => match[1]!);
}

/** Static `import … from "./x.js"`, `import "./x.js"` and `export … from "./x.js"` of a chunk. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  const pattern = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']([^"']+\.js)["']/g;
  for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

/** Every file a page loads before the app first renders, with its gzip size. */
export function measure(distDir: string, pathname: string): Asset[] {
  const html = htmlFor(distDir, pathname);
  const scripts = attributeValues(html, /<script[^>]*type="module"[^>]*src="([^"]+)"/g);
  const preloads = attributeValues(html, /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
  const styles = attributeValues(html, /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);

  const assets = new Map<string, Asset>();
  const queue = [...scripts, ...preloads];
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (assets.has(url)) continue;
    const code = fs.readFileSync(path.join(distDir, url), 'utf8');
    assets.set(url, { file: url, kind: 'js', gzipBytes: gzipSync(code, { level: 9 }).length });
    for (const imported of staticImports(code)) {
      queue.push(path.posix.join(path.posix.dirname(url), imported));
    }
  }
  for (const [index, css] of attributeValues(html, /<style[^>]*>([\s\S]*?)<\/style>/g).entries()) {
    assets.set(`inline-${index}`, {
      file: '(inline <style> in the HTML)',
      kind: 'css',
      gzipBytes: gzipSync(css, { level: 9 }).length,
    });
  }
  for (const url of styles) {
    const css = fs.readFileSync(path.join(distDir, url));
    assets.set(url, { file: url, kind: 'css', gzipBytes: gzipSync(css, { level: 9 }).length });
  }
  return [...assets.values()];
}

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** What the learning app loads for every screen before the screen's own page module. */
const APP_FRAME_MODULES = [
  'app/app-layout.tsx',
  'lib/query-client.ts',
  'app/browser-page-loaders.ts',
];

/** Source modules no app page may load up front (issue 12: readers load on their route only). */
const READER_LIBRARIES = /node_modules\/(pdfjs-dist|foliate-js)\//;

/** The page module src/web/app/app-pages.ts loads for an app route, relative to src/web. */
export function appPageModule(routePath: string): string {
  const source = fs.readFileSync(path.resolve('src/web/app/app-pages.ts'), 'utf8');
  const quoted = routePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`'${quoted}': \\(\\) =>\\s*import\\('@/([^']+)'\\)`).exec(source);
  if (!match) throw new Error(`src/web/app/app-pages.ts has no page for ${routePath}`);
  return `${match[1]}.tsx`;
}

/**
 * Every file the learning app loads to show `routePath`, from the build manifest, and the
 * source modules of those chunks that the reader libraries supplied (none, or the run fails).
 */
export function measureAppRoute(
  distDir: string,
  routePath: string,
): { assets: Asset[]; readerModules: string[] } {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    throw new Error(`${manifestFile} is missing: run \`npm run build\` first.`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error(`${manifestFile} has no entry chunk`);
  const roots = [entry, ...APP_FRAME_MODULES, appPageModule(routePath)];
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in ${manifestFile}`);
    seen.add(key);
    queue.push(...(chunk.imports ?? []));
  }
  const assets = new Map<string, Asset>();
  for (const key of seen) {
    const chunk = manifest[key]!;
    for (const [file, kind] of [
      [chunk.file, 'js'] as const,
      ...(chunk.css ?? []).map((css) => [css, 'css'] as const),
    ]) {
      if (assets.has(file)) continue;
      const bytes = fs.readFileSync(path.join(distDir, file));
      assets.set(file, { file, kind, gzipBytes: gzipSync(bytes, { level: 9 }).length });
    }
  }
  return {
    assets: [...assets.values()],
    readerModules: [...seen].filter((key) => READER_LIBRARIES.test(key)),
  };
}

export function totals(assets: Asset[]): { js: number; css: number } {
  const sum = (kind: Asset['kind']) =>
    assets.filter((asset) => asset.kind === kind).reduce((total, a) => total + a.gzipBytes, 0);
  return { js: sum('js'), css: sum('css') };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** The scripts a first-time visitor's browser fetched until the network was idle. */
async function scriptsUntilIdle(distDir: string, paths: string[]) {
  const [{ startServer }, { launchBrowser, viewports }] = await Promise.all([
    import('../src/server/start'),
    import('../tests/support/browser'),
  ]);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-page-weight-'));
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATA_ROOM_PIN: 'page-weight-bench',
      WEB_DIST_DIR: distDir,
    },
  );
  const server = await startServer(config);
  const browser = await launchBrowser({ firstVisit: true });
  const found = new Map<string, { file: string; bytes: number }[]>();
  try {
    for (const pathname of paths) {
      const context = await browser.newContext({ viewport: viewports.mobile });
      const page = await context.newPage();
      const scripts: Promise<{ file: string; bytes: number }>[] = [];
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return;
        scripts.push(
          request.sizes().then((sizes) => ({
            file: new URL(request.url()).pathname,
            // What crossed the network, headers included (Lighthouse's transferSize).
            bytes: sizes.responseBodySize + sizes.responseHeadersSize,
          })),
        );
      });
      await page.goto(server.url + pathname, { waitUntil: 'networkidle' });
      found.set(pathname, await Promise.all(scripts));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return found;
}

async function main() {
  const args = process.argv.slice(2);
  const untilIdle = args.includes('--until-idle');
  const given = args.filter((arg) => arg !== '--until-idle');
  const paths = given.length > 0 ? given : ['/', '/data-encryption', '/app'];
  const distDir = loadConfig().webDistDir;
  console.log(`Page weight before first render (gzip), build in ${distDir}\n`);
  let overBudget = false;
  for (const pathname of paths) {
    if (findRoute(pathname)?.kind === 'app') {
      const { assets, readerModules } = measureAppRoute(distDir, pathname);
      const { js, css } = totals(assets);
      console.log(
        `${pathname} (learning app, from the manifest): JS ${kb(js)} KB in ${assets.filter((a) => a.kind === 'js').length} files, CSS ${kb(css)} KB`,
      );
      for (const asset of assets.sort((a, b) => b.gzipBytes - a.gzipBytes)) {
        console.log(`  ${kb(asset.gzipBytes).padStart(7)} KB  ${asset.file}`);
      }
      if (readerModules.length > 0) {
        console.log(`  READER CODE LOADED UP FRONT: ${readerModules.join(', ')}`);
        overBudget = true;
      } else console.log('  no reader code (pdf.js, foliate-js) among them');
      console.log('');
      continue;
    }
    const assets = measure(distDir, pathname);
    const { js, css } = totals(assets);
    const isDoc = findRoute(pathname)?.kind === 'doc';
    const verdict = isDoc
      ? js / 1024 <= DOC_PAGE_BUDGET_KB
        ? `  (within the ${DOC_PAGE_BUDGET_KB} KB budget)`
        : `  (OVER the ${DOC_PAGE_BUDGET_KB} KB budget)`
      : '';
    if (isDoc && js / 1024 > DOC_PAGE_BUDGET_KB) overBudget = true;
    console.log(
      `${pathname}: JS ${kb(js)} KB in ${assets.filter((a) => a.kind === 'js').length} files, CSS ${kb(css)} KB${verdict}`,
    );
    for (const asset of assets.sort((a, b) => b.gzipBytes - a.gzipBytes)) {
      console.log(`  ${kb(asset.gzipBytes).padStart(7)} KB  ${asset.file}`);
    }
    console.log('');
  }
  if (untilIdle) {
    const publicPaths = paths.filter((pathname) => findRoute(pathname)?.kind !== 'app');
    console.log('JavaScript until the network is idle, first visit (transferred, gzip)\n');
    for (const [pathname, scripts] of await scriptsUntilIdle(distDir, publicPaths)) {
      const bytes = scripts.reduce((sum, script) => sum + script.bytes, 0);
      // The budget is the documentation pages' (issue 18); the others' figures are for reading.
      const isDoc = findRoute(pathname)?.kind === 'doc';
      const within = bytes / 1024 <= DOC_PAGE_BUDGET_KB;
      if (isDoc && !within) overBudget = true;
      const verdict = isDoc
        ? `  (${within ? 'within' : 'OVER'} the ${DOC_PAGE_BUDGET_KB} KB budget)`
        : '';
      console.log(`${pathname}: JS ${kb(bytes)} KB in ${scripts.length} files${verdict}`);
      for (const script of scripts.sort((a, b) => b.bytes - a.bytes)) {
        console.log(`  ${kb(script.bytes).padStart(7)} KB  ${script.file}`);
      }
      console.log('');
    }
  }
  if (overBudget) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
