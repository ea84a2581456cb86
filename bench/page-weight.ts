/**
 * Page weight of the production build: the JavaScript and CSS (gzip) a browser must load
 * before the app first renders, for the home page and for a documentation page. Follows the
 * built HTML's module graph: the entry script, its modulepreloads (the page's own chunks,
 * added by scripts/prerender.ts), stylesheets, and every static import of those files.
 * Dynamic imports (other pages, the data-room dialog, the toaster) are not counted.
 *
 *   npm run build && node --import tsx bench/page-weight.ts [path…]
 */
import fs from 'node:fs';
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

export function totals(assets: Asset[]): { js: number; css: number } {
  const sum = (kind: Asset['kind']) =>
    assets.filter((asset) => asset.kind === kind).reduce((total, a) => total + a.gzipBytes, 0);
  return { js: sum('js'), css: sum('css') };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function main() {
  const paths =
    process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/', '/data-encryption'];
  const distDir = loadConfig().webDistDir;
  console.log(`Page weight before first render (gzip), build in ${distDir}\n`);
  let overBudget = false;
  for (const pathname of paths) {
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
  if (overBudget) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
