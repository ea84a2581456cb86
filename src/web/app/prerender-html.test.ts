import { describe, expect, it } from 'vitest';
import { inlineStylesheets, pagePreloads, renderDocument, type Manifest } from './prerender-html';

const template = `<!doctype html><html><head><title>Lyceum</title><script type="module" src="/assets/index-a.js"></script></head><body><div id="root" class="isolate"></div></body></html>`;

describe('renderDocument', () => {
  it('puts title, description, canonical and the markup into the template', () => {
    const html = renderDocument(
      template,
      {
        title: 'Data Encryption | Lyceum',
        description: 'TLS 1.3 in transit & AES-256 at rest',
        canonical: '/data-encryption',
        modulePreloads: ['/assets/page-b.js'],
      },
      '<main><h1>Data Encryption</h1></main>',
    );
    expect(html).toContain('<title>Data Encryption | Lyceum</title>');
    expect(html).toContain(
      '<meta name="description" content="TLS 1.3 in transit &amp; AES-256 at rest" />',
    );
    expect(html).toContain('<link rel="canonical" href="/data-encryption" />');
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/page-b.js" />');
    expect(html).toContain(
      '<div id="root" class="isolate"><main><h1>Data Encryption</h1></main></div>',
    );
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it('escapes head values and leaves markup with $ signs intact', () => {
    const html = renderDocument(template, { title: 'A <b> & "c"' }, '<p>$& costs $1</p>');
    expect(html).toContain('<title>A &lt;b&gt; &amp; &quot;c&quot;</title>');
    expect(html).toContain('<p>$& costs $1</p>');
    expect(html).not.toContain('name="description"');
    expect(html).not.toContain('rel="canonical"');
  });

  it('refuses a page that was already prerendered', () => {
    const once = renderDocument(template, { title: 'Home' }, '<p>x</p>');
    expect(() => renderDocument(once, { title: 'Again' }, '<p>y</p>')).toThrow(/template/);
  });
});

describe('inlineStylesheets', () => {
  it('replaces each stylesheet link with its contents', () => {
    const html =
      '<head><link rel="stylesheet" crossorigin href="/assets/index-a.css"></head><body></body>';
    const inlined = inlineStylesheets(html, (href) =>
      href === '/assets/index-a.css' ? 'body{color:red}' : '',
    );
    expect(inlined).toBe(
      '<head><style data-href="/assets/index-a.css">body{color:red}</style></head><body></body>',
    );
  });

  it('cannot be closed early by the CSS it inlines', () => {
    const inlined = inlineStylesheets(
      '<link rel="stylesheet" href="/a.css">',
      () => 'a::after{content:"</style><script>"}',
    );
    expect(inlined.match(/<\/style>/g)).toHaveLength(1);
  });
});

describe('pagePreloads', () => {
  const manifest: Manifest = {
    'main.tsx': { file: 'assets/index-a.js', isEntry: true, imports: ['_vendor.js'] },
    '_vendor.js': { file: 'assets/vendor-v.js' },
    '_table.js': { file: 'assets/table-t.js', imports: ['_vendor.js'] },
    'features/site/doc-page/doc-page-view.tsx': {
      file: 'assets/doc-page-view-d.js',
      imports: ['_table.js', '_vendor.js'],
    },
    'features/site/content/docs/data-encryption.ts': { file: 'assets/data-encryption-e.js' },
  };

  it("lists the page's chunks and their imports, minus what the entry already loads", () => {
    expect(
      pagePreloads(manifest, [
        'features/site/doc-page/doc-page-view.tsx',
        'features/site/content/docs/data-encryption.ts',
      ]),
    ).toEqual(['/assets/doc-page-view-d.js', '/assets/table-t.js', '/assets/data-encryption-e.js']);
  });

  it('finds a dynamic entry that Vite keyed by chunk name', () => {
    const merged: Manifest = {
      ...manifest,
      '_home-page-h.js': {
        file: 'assets/home-page-h.js',
        name: 'home-page',
        isDynamicEntry: true,
        imports: ['_table.js'],
      },
    };
    expect(pagePreloads(merged, ['features/site/pages/home-page.tsx'])).toEqual([
      '/assets/home-page-h.js',
      '/assets/table-t.js',
    ]);
  });

  it('fails loudly for a module the build does not have', () => {
    expect(() => pagePreloads(manifest, ['features/site/pages/missing-page.tsx'])).toThrow(
      /missing-page/,
    );
  });
});
