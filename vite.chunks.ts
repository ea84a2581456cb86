/**
 * How the build groups the icons into chunks (decisions 0190, 0193).
 *
 * The documentation pages draw their icons from one registry (doc-icons.ts) that other public
 * and app pages share icons with, and Rollup put each shared icon in a file of its own: a
 * documentation page fetched a dozen files of 100–400 bytes, each with its own request and
 * response headers. The icons the documentation pages use now form one chunk, except those
 * the entry loads up front anyway (moving those would make the entry load the whole group).
 * The home and marketing pages' icons are grouped by the set of those pages that use them
 * (`icons-home`, `icons-home_platform-overview`, …), whichever app screens share them: a
 * marketing page fetched six to eight icon files, and now two to four.
 *
 * Which module uses which icon is only visible when icons are imported from their own modules:
 * `import { Lock } from 'lucide-react'` goes through the package's index, which imports every
 * icon. So our imports from the index are rewritten to lucide-react's per-icon exports
 * (`lucide-react/icons/<name>`, the package's own API), the way Next.js's
 * `optimizePackageImports` does; the index's export list names each icon's module.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

const iconModule = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]([a-z0-9-]+)\.mjs$/;
const docPageCode = /[\\/]src[\\/]web[\\/]features[\\/]site[\\/]doc-page[\\/]/;
/** The home and marketing pages' own code. */
const sitePageCode = /[\\/]src[\\/]web[\\/]features[\\/]site[\\/]pages[\\/]/;
/**
 * React and lucide-react's icon base (and Rollup's CommonJS helpers they need): every chunk of
 * icons depends on them. Rollup moves a manual chunk's unassigned dependencies into it, so they
 * are named here, with the group the entry loads up front anyway; otherwise the first group of
 * icons to claim them would carry React, and every page would load that group.
 */
const sharedByIconGroups =
  /(?:[\\/]node_modules[\\/]react[\\/](?:index\.js|cjs[\\/]react\.production\.js)|[\\/]lucide-react[\\/]dist[\\/]esm[\\/](?:shared[\\/]|context\.mjs|Icon\.mjs|createLucideIcon\.mjs|defaultAttributes\.mjs)|^\0commonjsHelpers)/;
/** lucide-react's indexes import every icon: that they are loaded says nothing of any one icon. */
const lucideIndex = /[\\/]lucide-react[\\/]dist[\\/]esm[\\/](?:lucide-react|icons[\\/]index)\.mjs$/;

/** Export name → icon module name, from lucide-react's index (`Lock`, `LockIcon` → `lock`). */
function iconExports(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const index = path.join(
    path.dirname(require.resolve('lucide-react/package.json')),
    'dist/esm/lucide-react.mjs',
  );
  const names = new Map<string, string>();
  const line = /^export \{ (.+) \} from '\.\/icons\/([a-z0-9-]+)\.mjs';$/gm;
  for (const [, bindings, file] of fs.readFileSync(index, 'utf8').matchAll(line)) {
    for (const binding of bindings!.split(', ')) {
      const name = /^default as (\w+)$/.exec(binding)?.[1];
      if (name) names.set(name, file!);
    }
  }
  return names;
}

const lucideImport = /import\s*\{([^}]*)\}\s*from\s*['"]lucide-react['"];?/g;

/** Rewrites our `import { A, B } from 'lucide-react'` to one import per icon module. */
export function lucideIconImports(): Plugin {
  let icons: Map<string, string> | undefined;
  return {
    name: 'lyceum:lucide-icon-imports',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/]web[\\/].+\.tsx?$/.test(id) || !code.includes('lucide-react')) return null;
      icons ??= iconExports();
      const known = icons;
      let changed = false;
      const out = code.replace(lucideImport, (statement, list: string) => {
        const kept: string[] = [];
        const deep: string[] = [];
        for (const raw of list
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)) {
          const [imported, local = imported] = raw.split(/\s+as\s+/) as [string, string?];
          const file = raw.startsWith('type ') ? undefined : known.get(imported);
          if (file) deep.push(`import ${local} from 'lucide-react/icons/${file}';`);
          else kept.push(raw);
        }
        if (deep.length === 0) return statement;
        changed = true;
        return [
          ...(kept.length > 0 ? [`import { ${kept.join(', ')} } from 'lucide-react';`] : []),
          ...deep,
        ].join('\n');
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

export function manualChunks(id: string, meta: Rollup.ManualChunkMeta): string | undefined {
  if (sharedByIconGroups.test(id)) return 'doc-icons';
  if (!iconModule.test(id)) return undefined;
  const importers = meta.getModuleInfo(id)?.importers ?? [];
  const usedBy = (code: RegExp) => importers.some((importer) => code.test(importer));
  if (!usedBy(docPageCode) && !usedBy(sitePageCode)) return undefined;
  if (loadedByEntry(id, meta, new Set())) return undefined;
  if (usedBy(docPageCode)) return 'doc-icons';
  // One file per set of pages that use the icons: each page fetches its icons in one or two
  // files, never another page's, whichever app screens share them.
  return `icons-${[...pagesUsing(id, meta, new Set(), new Set())].sort().join('+')}`;
}

const sitePageModule =
  /[\\/]src[\\/]web[\\/]features[\\/]site[\\/]pages[\\/]([a-z0-9-]+)-page\.tsx$/;

/** The home and marketing page modules (`<slug>-page.tsx`) whose code imports the module. */
function pagesUsing(
  id: string,
  meta: Rollup.ManualChunkMeta,
  seen: Set<string>,
  pages: Set<string>,
): Set<string> {
  if (seen.has(id)) return pages;
  seen.add(id);
  const page = sitePageModule.exec(id)?.[1];
  if (page) return pages.add(page);
  for (const importer of meta.getModuleInfo(id)?.importers ?? []) {
    if (sitePageCode.test(importer)) pagesUsing(importer, meta, seen, pages);
  }
  return pages;
}

/** Whether the module is reached from an entry by static imports alone (loaded up front). */
function loadedByEntry(id: string, meta: Rollup.ManualChunkMeta, seen: Set<string>): boolean {
  if (seen.has(id) || lucideIndex.test(id)) return false;
  seen.add(id);
  const info = meta.getModuleInfo(id);
  if (!info) return false;
  if (info.isEntry) return true;
  return info.importers.some((importer) => loadedByEntry(importer, meta, seen));
}
