/**
 * Text extraction from the PDF and ePub files of the course-files bucket (decision 0151):
 * one section per PDF page or ePub spine item, plus the outline, so a search hit opens the
 * reader at its page or chapter. Pure: bytes in, text out, or an ExtractionError that says
 * what is wrong with the file in words an instructor can act on. Nothing is stored here.
 *
 * Threat model: the file comes from whoever teaches a course and is parsed on the server.
 * pdf.js runs with evaluation off (no `new Function` for fonts) and without fetching
 * anything; ePub archives are checked for their declared size before inflating, and XHTML is
 * reduced to text with no entity expansion beyond the five XML ones and numeric references.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import parser from 'fast-xml-parser';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';

export type DocumentKind = 'pdf' | 'epub';

export interface ExtractedSection {
  /** PDF page or ePub spine position, 1-based. */
  position: number;
  /** The ePub chapter's title; '' for PDF pages. */
  label: string;
  /** The spine item's path inside the ePub; null for PDF pages. */
  href: string | null;
  text: string;
}

export interface ExtractedDocument {
  kind: DocumentKind;
  title: string;
  sections: ExtractedSection[];
  outline: { title: string; position: number }[];
  textChars: number;
}

export const EXTRACTION_LIMITS = {
  /** The course-files bucket's own limit (db/app/0324). */
  maxFileBytes: 100 * 1024 * 1024,
  maxSections: 5000,
  /** Uncompressed size of an ePub's entries together. */
  maxUnpackedBytes: 300 * 1024 * 1024,
  maxEntries: 10000,
  maxTextChars: 50_000_000,
  /** Longest text kept for one page or chapter (the database's row check). */
  maxSectionChars: 2_000_000,
} as const;

export class ExtractionError extends Error {
  constructor(
    public readonly status: 400 | 413 | 422,
    public readonly code: 'not_pdf' | 'not_epub' | 'corrupt' | 'encrypted' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export interface ExtractionOptions {
  /**
   * PDF only: lines set larger than the page's body text become Markdown headings (`# ` or
   * `## `), so LE Adapt finds a document's sections (decision 0502). The library indexes plain
   * text and leaves it off.
   */
  markHeadings?: boolean;
}

export async function extractDocument(
  kind: DocumentKind,
  bytes: Uint8Array,
  options: ExtractionOptions = {},
): Promise<ExtractedDocument> {
  if (bytes.byteLength > EXTRACTION_LIMITS.maxFileBytes) {
    throw new ExtractionError(
      413,
      'too_large',
      `The file is ${mb(bytes.byteLength)}; files of up to ${mb(EXTRACTION_LIMITS.maxFileBytes)} can be read.`,
    );
  }
  const document = kind === 'pdf' ? await extractPdf(bytes, options) : extractEpub(bytes);
  if (document.textChars > EXTRACTION_LIMITS.maxTextChars) {
    throw new ExtractionError(
      413,
      'too_large',
      `The file holds ${document.textChars.toLocaleString('en')} characters of text; up to ${EXTRACTION_LIMITS.maxTextChars.toLocaleString('en')} can be indexed.`,
    );
  }
  return document;
}

// ----- PDF ----------------------------------------------------------------------------------

const require = createRequire(import.meta.url);
const standardFontDataUrl = `${path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;
/**
 * pdf.js is large; the server loads it on the first file, not at start-up. Its worker code
 * runs in this thread (Node has no web workers): loaded once here and published where pdf.js
 * looks for it, instead of being imported again for every document.
 */
const loadPdfJs = () =>
  (pdfjs ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })());

function normalise(text: string): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

interface PdfTextItem {
  str: string;
  height: number;
  hasEOL: boolean;
  fontName: string;
}

/**
 * A page's lines with headings marked: a line set at least 1.1 times the body size (the size
 * most characters have), or wholly in another font than the body's (bold) and short with no
 * closing punctuation. A heading wrapped over consecutive lines of one size stays one heading.
 */
function textWithHeadings(items: PdfTextItem[]): string {
  const lines: { text: string; size: number; fonts: Set<string> }[] = [];
  let line = { text: '', size: 0, fonts: new Set<string>() };
  for (const item of items) {
    line.text += item.str;
    if (item.str.trim() !== '') {
      line.size = Math.max(line.size, Math.round(item.height * 10) / 10);
      line.fonts.add(item.fontName);
    }
    if (item.hasEOL) {
      lines.push(line);
      line = { text: '', size: 0, fonts: new Set() };
    } else if (item.str !== '') line.text += ' ';
  }
  lines.push(line);
  const sizes = new Map<number, number>();
  const fonts = new Map<string, number>();
  for (const l of lines) {
    sizes.set(l.size, (sizes.get(l.size) ?? 0) + l.text.length);
    for (const font of l.fonts) fonts.set(font, (fonts.get(font) ?? 0) + l.text.length);
  }
  const top = <K>(counts: Map<K, number>) =>
    [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const body = top(sizes) ?? 0;
  const bodyFont = top(fonts);
  const out: string[] = [];
  let previous = { size: 0, heading: -1 };
  for (const l of lines) {
    const text = l.text.replace(/\s+/g, ' ').trim();
    const larger = body > 0 && l.size >= body * 1.1;
    const otherFont =
      bodyFont !== undefined && l.fonts.size > 0 && !l.fonts.has(bodyFont) && !/[.,;:]$/.test(text);
    const heading = (larger || otherFont) && text.length <= 160 && /\p{L}{2}/u.test(text);
    if (heading && previous.heading >= 0 && previous.size === l.size) {
      out[previous.heading] += ` ${text}`;
      continue;
    }
    if (heading) {
      out.push('', `${l.size >= body * 1.3 ? '#' : '##'} ${text}`);
      previous = { size: l.size, heading: out.length - 1 };
      out.push('');
    } else {
      out.push(text);
      previous = { size: l.size, heading: -1 };
    }
  }
  return out.join('\n');
}

async function extractPdf(
  bytes: Uint8Array,
  options: ExtractionOptions,
): Promise<ExtractedDocument> {
  if (strFromU8(bytes.subarray(0, 1024), true).indexOf('%PDF-') < 0) {
    throw new ExtractionError(
      400,
      'not_pdf',
      'This is not a PDF file: it does not start with a PDF header.',
    );
  }
  const { getDocument } = await loadPdfJs();
  // pdf.js takes ownership of the buffer it is given; it gets a copy.
  const task = getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy();
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') {
      throw new ExtractionError(
        422,
        'encrypted',
        'This PDF is protected by a password. Upload a copy without password protection.',
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtractionError(
      422,
      'corrupt',
      `This PDF is damaged and cannot be read (${reason}).`,
    );
  }
  try {
    if (doc.numPages > EXTRACTION_LIMITS.maxSections) {
      throw new ExtractionError(
        413,
        'too_large',
        `The PDF has ${doc.numPages} pages; up to ${EXTRACTION_LIMITS.maxSections} can be read.`,
      );
    }
    const sections: ExtractedSection[] = [];
    let textChars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      let text: string;
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        text = options.markHeadings
          ? textWithHeadings(content.items.filter((item) => 'str' in item))
          : content.items
              .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
              .join('');
        page.cleanup();
      } catch (error) {
        throw new ExtractionError(
          422,
          'corrupt',
          `Page ${n} of this PDF is damaged and cannot be read (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
      text = normalise(text).slice(0, EXTRACTION_LIMITS.maxSectionChars);
      textChars += text.length;
      sections.push({ position: n, label: '', href: null, text });
    }
    const info = (await doc.getMetadata().catch(() => null))?.info as
      { Title?: unknown } | undefined;
    const title = typeof info?.Title === 'string' ? info.Title.trim().slice(0, 500) : '';
    return { kind: 'pdf', title, sections, outline: await pdfOutline(doc), textChars };
  } finally {
    await doc.destroy();
  }
}

type PdfDoc = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/** The outline's top level with the page each entry opens; entries that go nowhere are left out. */
async function pdfOutline(doc: PdfDoc): Promise<{ title: string; position: number }[]> {
  const outline = await doc.getOutline().catch(() => null);
  if (!outline) return [];
  const entries: { title: string; position: number }[] = [];
  for (const item of outline.slice(0, 1000)) {
    try {
      const dest = typeof item.dest === 'string' ? await doc.getDestination(item.dest) : item.dest;
      const ref = dest?.[0];
      if (!ref) continue;
      const index =
        typeof ref === 'number' ? ref : await doc.getPageIndex(ref as { num: number; gen: number });
      entries.push({ title: item.title.trim().slice(0, 500), position: index + 1 });
    } catch {
      // An entry pointing at nothing is the file's flaw; the rest of the outline still helps.
    }
  }
  return entries;
}

// ----- ePub ---------------------------------------------------------------------------------

const xmlParser = {
  parse: (text: string) =>
    parser.parse(text, {
      ignoreAttributes: false,
      attributeNamePrefix: '',
      removeNSPrefix: true,
      parseAttributeValue: false,
      parseNodeValue: false,
    } as Parameters<typeof parser.parse>[1]) as Record<string, unknown>,
};

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

function notEpub(message: string): ExtractionError {
  return new ExtractionError(
    422,
    'corrupt',
    `This ePub is damaged and cannot be read: ${message}.`,
  );
}

function unpack(bytes: Uint8Array): Record<string, Uint8Array> {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b) {
    throw new ExtractionError(
      400,
      'not_epub',
      'This is not an ePub file: it is not a ZIP archive.',
    );
  }
  let declared = 0;
  let entries = 0;
  let tooLarge = false;
  try {
    return unzipSync(bytes, {
      filter(file) {
        entries += 1;
        declared += file.originalSize;
        if (
          declared > EXTRACTION_LIMITS.maxUnpackedBytes ||
          entries > EXTRACTION_LIMITS.maxEntries
        ) {
          tooLarge = true;
          throw new Error('too large');
        }
        return true;
      },
    });
  } catch (error) {
    if (tooLarge) {
      throw new ExtractionError(
        413,
        'too_large',
        `This ePub unpacks to more than ${mb(EXTRACTION_LIMITS.maxUnpackedBytes)} or ${EXTRACTION_LIMITS.maxEntries} files; it cannot be read.`,
      );
    }
    throw notEpub(
      `the ZIP archive is broken (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** XHTML reduced to its readable text, blocks on their own lines. */
export function xhtmlText(xhtml: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(xhtml)?.[1] ?? xhtml;
  return normalise(
    body
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
      .replace(
        /<\/(p|div|h[1-6]|li|tr|section|blockquote|pre|table|ul|ol|dd|dt)>|<br\s*\/?>/gi,
        '\n',
      )
      .replace(/<\/(td|th)>/gi, ' ')
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
        if (name[0] === '#') {
          const code =
            name[1] === 'x' || name[1] === 'X'
              ? parseInt(name.slice(2), 16)
              : Number(name.slice(1));
          return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
        }
        return entities[name.toLowerCase()] ?? whole;
      }),
  );
}

function firstHeading(xhtml: string): string {
  const match =
    /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(xhtml) ??
    /<title[^>]*>([\s\S]*?)<\/title>/i.exec(xhtml);
  return match ? xhtmlText(match[1]!).replace(/\s+/g, ' ').slice(0, 500) : '';
}

/** Resolves `href` against the directory of `base` inside the archive. */
function inside(base: string, href: string): string {
  const clean = decodeURIComponent(href.split('#')[0]!);
  return path.posix.normalize(path.posix.join(path.posix.dirname(base), clean)).replace(/^\/+/, '');
}

function extractEpub(bytes: Uint8Array): ExtractedDocument {
  const files = unpack(bytes);
  const text = (name: string) => (files[name] ? strFromU8(files[name]) : undefined);

  const container = text('META-INF/container.xml');
  if (!container) throw notEpub('META-INF/container.xml is missing');
  const rootfiles = asArray(
    (
      (xmlParser.parse(container).container as Record<string, unknown> | undefined)?.rootfiles as
        Record<string, unknown> | undefined
    )?.rootfile as Record<string, string> | Record<string, string>[] | undefined,
  );
  const opfPath = rootfiles[0]?.['full-path'];
  const opfText = opfPath ? text(opfPath) : undefined;
  if (!opfPath || !opfText) throw notEpub('its package document (OPF) is missing');

  let pkg: Record<string, unknown>;
  try {
    pkg = (xmlParser.parse(opfText).package ?? {}) as Record<string, unknown>;
  } catch (error) {
    throw notEpub(
      `its package document is not XML (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const metadata = (pkg.metadata ?? {}) as Record<string, unknown>;
  const rawTitle = asArray(metadata.title as unknown)[0];
  const title = (
    typeof rawTitle === 'string'
      ? rawTitle
      : String((rawTitle as { '#text'?: unknown } | undefined)?.['#text'] ?? '')
  )
    .trim()
    .slice(0, 500);
  const manifest = new Map<string, { href: string; type: string; properties: string }>();
  for (const item of asArray(
    (pkg.manifest as Record<string, unknown> | undefined)?.item as
      Record<string, string> | Record<string, string>[],
  )) {
    if (item.id && item.href) {
      manifest.set(item.id, {
        href: inside(opfPath, item.href),
        type: item['media-type'] ?? '',
        properties: item.properties ?? '',
      });
    }
  }
  const spine = asArray(
    (pkg.spine as Record<string, unknown> | undefined)?.itemref as
      Record<string, string> | Record<string, string>[],
  )
    .map((ref) => manifest.get(ref.idref ?? ''))
    .filter((item): item is NonNullable<typeof item> => !!item);
  if (spine.length === 0) throw notEpub('its reading order (spine) is empty');
  if (spine.length > EXTRACTION_LIMITS.maxSections) {
    throw new ExtractionError(
      413,
      'too_large',
      `The ePub has ${spine.length} chapters; up to ${EXTRACTION_LIMITS.maxSections} can be read.`,
    );
  }

  // DRM: content listed in encryption.xml (other than obfuscated fonts) cannot be read.
  const encryption = text('META-INF/encryption.xml');
  if (encryption) {
    const encrypted = new Set(
      [...encryption.matchAll(/<(?:\w+:)?CipherReference[^>]*URI="([^"]+)"/g)].map((m) =>
        decodeURIComponent(m[1]!).replace(/^\/+/, ''),
      ),
    );
    if (spine.some((item) => encrypted.has(item.href))) {
      throw new ExtractionError(
        422,
        'encrypted',
        'This ePub is protected by DRM (its chapters are encrypted). Upload a copy without DRM.',
      );
    }
  }

  const navTitles = navigationTitles(manifest, text);
  const sections: ExtractedSection[] = [];
  let textChars = 0;
  for (const [index, item] of spine.entries()) {
    const source = text(item.href);
    if (source === undefined)
      throw notEpub(`the chapter ${item.href} named in its spine is missing`);
    const body = xhtmlText(source).slice(0, EXTRACTION_LIMITS.maxSectionChars);
    textChars += body.length;
    sections.push({
      position: index + 1,
      label: navTitles.get(item.href) ?? firstHeading(source),
      href: item.href,
      text: body,
    });
  }
  const outline = sections
    .filter((s) => navTitles.has(s.href!))
    .map((s) => ({ title: s.label, position: s.position }));
  return { kind: 'epub', title, sections, outline, textChars };
}

/** Chapter titles from the EPUB 3 navigation document, by the file they open. */
function navigationTitles(
  manifest: Map<string, { href: string; type: string; properties: string }>,
  text: (name: string) => string | undefined,
): Map<string, string> {
  const titles = new Map<string, string>();
  const nav = [...manifest.values()].find((item) => item.properties.split(/\s+/).includes('nav'));
  const source = nav ? text(nav.href) : undefined;
  if (!nav || !source) return titles;
  for (const match of source.matchAll(/<a[^>]*href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/gi)) {
    const target = inside(nav.href, match[1]!);
    if (!titles.has(target))
      titles.set(target, xhtmlText(match[2]!).replace(/\s+/g, ' ').slice(0, 500));
  }
  return titles;
}
