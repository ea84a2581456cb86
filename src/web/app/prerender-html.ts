/**
 * Builds a prerendered page from the built index.html: the page's head tags and the server-
 * rendered markup inside #root. Pure string work so it can be tested without a build.
 */
export const ROOT_PLACEHOLDER = '<div id="root" class="isolate"></div>';
const TITLE = /<title>[^<]*<\/title>/;

export interface PageHead {
  title: string;
  description?: string;
  /** Absolute URL or site-relative path; omitted for pages without a description. */
  canonical?: string;
  /** Extra module chunks this page needs before it can hydrate. */
  modulePreloads?: string[];
  noindex?: boolean;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLESHEET = /<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g;

/**
 * Replaces the template's stylesheet links with the stylesheets themselves, so a prerendered
 * page paints after one request instead of two round trips (see docs/decisions/0002).
 */
export function inlineStylesheets(html: string, read: (href: string) => string): string {
  return html.replace(STYLESHEET, (_tag, href: string) => {
    // A literal "</style" inside the CSS would end the element early.
    const css = read(href).replace(/<\/style/gi, '<\\/style');
    return `<style data-href="${escapeHtml(href)}">${css}</style>`;
  });
}

export function isTemplate(html: string): boolean {
  return html.includes(ROOT_PLACEHOLDER) && TITLE.test(html);
}

export function renderDocument(template: string, head: PageHead, rootHtml: string): string {
  if (!isTemplate(template)) {
    throw new Error(
      'The HTML template has no empty #root or no <title>; was it already prerendered?',
    );
  }
  const tags = [`<title>${escapeHtml(head.title)}</title>`];
  if (head.description) {
    tags.push(`<meta name="description" content="${escapeHtml(head.description)}" />`);
  }
  if (head.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`);
  if (head.noindex) tags.push('<meta name="robots" content="noindex" />');
  for (const href of head.modulePreloads ?? []) {
    tags.push(`<link rel="modulepreload" crossorigin href="${escapeHtml(href)}" />`);
  }
  return template
    .replace(TITLE, () => tags.join('\n    '))
    .replace(ROOT_PLACEHOLDER, () => `<div id="root" class="isolate">${rootHtml}</div>`);
}

export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export type Manifest = Record<string, ManifestChunk>;

function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) return;
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

/**
 * The manifest key of a source module. Vite keys a dynamic entry by its source path, except
 * when another chunk also imports from it: then the key is "_<name>-<hash>.js" with no `src`,
 * and the chunk's `name` (the file name without extension) is the only way to find it.
 */
export function manifestKey(manifest: Manifest, module: string): string | undefined {
  if (manifest[module]) return module;
  const name = module.slice(module.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]sx?$/, '');
  const candidates = Object.keys(manifest).filter((key) => {
    const chunk = manifest[key]!;
    return chunk.isDynamicEntry && !chunk.src && chunk.name === name;
  });
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * The chunks a page's modules need (with their static imports) that the entry does not
 * already load, as URLs. `moduleKeys` are source paths relative to the Vite root.
 */
export function pagePreloads(manifest: Manifest, moduleKeys: string[]): string[] {
  const entryKeys = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loadedByEntry = staticClosure(manifest, entryKeys);
  const keys = moduleKeys.map((module) => manifestKey(manifest, module));
  const missing = moduleKeys.filter((_module, index) => !keys[index]);
  if (missing.length > 0) throw new Error(`Not in the build manifest: ${missing.join(', ')}`);
  return [...staticClosure(manifest, keys as string[])]
    .filter((key) => !loadedByEntry.has(key))
    .map((key) => `/${manifest[key]!.file}`);
}
