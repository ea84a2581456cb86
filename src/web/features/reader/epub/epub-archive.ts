/**
 * An ePub's bytes opened for foliate-js (decision 0165): unpacked with fflate behind foliate's
 * loader interface, and refused before rendering, with a sentence the learner can act on, when
 * it is not a ZIP, its archive is broken or too big, its package document is missing, or its
 * chapters are encrypted (DRM). Also the one place that keeps a book's scripts from running:
 * every chapter gets a Content-Security-Policy before it becomes a `blob:` document.
 */
import { strFromU8, unzipSync } from 'fflate';
import type { FoliateLoader } from 'foliate-js/epub.js';

export class EpubOpenError extends Error {
  constructor(
    public readonly code: 'not_epub' | 'corrupt' | 'encrypted' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'EpubOpenError';
  }
}

/** The same limits the server's extraction applies (src/server/library/extract.ts). */
export const ARCHIVE_LIMITS = { maxUnpackedBytes: 300 * 1024 * 1024, maxEntries: 10000 };

/** Font obfuscation (IDPF and Adobe), which foliate undoes; anything else listed is DRM. */
const FONT_OBFUSCATION = new Set([
  'http://www.idpf.org/2008/embedding',
  'http://ns.adobe.com/pdf/enc#RC',
]);

function damaged(reason: string): EpubOpenError {
  return new EpubOpenError('corrupt', `This ePub is damaged and cannot be shown: ${reason}.`);
}

export function unpackEpub(bytes: Uint8Array): Map<string, Uint8Array> {
  if (bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) {
    throw new EpubOpenError('not_epub', 'This file is not an ePub: it is not a ZIP archive.');
  }
  let declared = 0;
  let entries = 0;
  let tooLarge = false;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(file) {
        entries += 1;
        declared += file.originalSize;
        tooLarge ||=
          declared > ARCHIVE_LIMITS.maxUnpackedBytes || entries > ARCHIVE_LIMITS.maxEntries;
        if (tooLarge) throw new Error('too large');
        return true;
      },
    });
  } catch (error) {
    if (tooLarge) {
      throw new EpubOpenError(
        'too_large',
        'This ePub unpacks to more than 300 MB or 10,000 files; it cannot be shown.',
      );
    }
    throw damaged(
      `its ZIP archive is broken (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const map = new Map(Object.entries(files));
  const container = map.get('META-INF/container.xml');
  if (!container) throw damaged('META-INF/container.xml is missing');
  const opfPath = /<(?:\w+:)?rootfile\b[^>]*\bfull-path="([^"]+)"/.exec(strFromU8(container))?.[1];
  if (!opfPath || !map.has(decodeURIComponent(opfPath))) {
    throw damaged('its package document (OPF) is missing');
  }
  const encrypted = drmProtected(map.get('META-INF/encryption.xml'));
  if (encrypted.length > 0) {
    throw new EpubOpenError(
      'encrypted',
      'This ePub is protected by DRM (its content is encrypted), so it cannot be shown here. Ask the course’s instructor for a copy without DRM.',
    );
  }
  return map;
}

/** The files `META-INF/encryption.xml` lists under an algorithm other than font obfuscation. */
export function drmProtected(encryptionXml: Uint8Array | undefined): string[] {
  if (!encryptionXml) return [];
  const text = strFromU8(encryptionXml);
  const protectedFiles: string[] = [];
  for (const [block] of text.matchAll(
    /<(?:\w+:)?EncryptedData\b[\s\S]*?<\/(?:\w+:)?EncryptedData>/g,
  )) {
    const algorithm = /<(?:\w+:)?EncryptionMethod\b[^>]*\bAlgorithm="([^"]+)"/.exec(block)?.[1];
    const uri = /<(?:\w+:)?CipherReference\b[^>]*\bURI="([^"]+)"/.exec(block)?.[1];
    if (uri && !(algorithm && FONT_OBFUSCATION.has(algorithm))) protectedFiles.push(uri);
  }
  return protectedFiles;
}

/** foliate's loader over the unpacked entries; a missing file is `null`, as foliate expects. */
export function archiveLoader(files: Map<string, Uint8Array>): FoliateLoader {
  const find = (name: string) => files.get(name) ?? files.get(safeDecode(name));
  return {
    loadText: (name) => {
      const bytes = find(name);
      return bytes ? strFromU8(bytes) : null;
    },
    loadBlob: (name, type) => {
      const bytes = find(name);
      return bytes ? new Blob([bytes as Uint8Array<ArrayBuffer>], type ? { type } : {}) : null;
    },
    getSize: (name) => find(name)?.byteLength ?? 0,
  };
}

function safeDecode(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The policy every chapter document carries: no script of any kind, nothing fetched from the
 * network (the book's own images, styles and fonts are `blob:` or `data:` addresses).
 */
export const CHAPTER_POLICY =
  "default-src 'none'; script-src 'none'; object-src 'none'; img-src blob: data:; media-src blob: data:; font-src blob: data:; style-src blob: data: 'unsafe-inline'";

const XHTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * A chapter document made safe to render: the policy as the first element of its head (so it
 * applies before anything the book wrote), and, for an SVG chapter, where a meta policy has no
 * effect, every script element and event-handler attribute removed. foliate serialises each
 * chapter after rewriting its links; this parses that string and serialises it again.
 */
export function withChapterPolicy(markup: string, type: string): string {
  const doc = new DOMParser().parseFromString(markup, type as DOMParserSupportedType);
  const root = doc.documentElement;
  if (type === 'image/svg+xml') {
    for (const script of [...doc.getElementsByTagNameNS('*', 'script')]) script.remove();
    for (const element of doc.querySelectorAll('*')) {
      for (const attribute of [...element.attributes]) {
        const value = attribute.value.trim().toLowerCase();
        if (attribute.name.toLowerCase().startsWith('on') || value.startsWith('javascript:')) {
          element.removeAttributeNode(attribute);
        }
      }
    }
    return new XMLSerializer().serializeToString(doc);
  }
  const ns = root.namespaceURI ?? XHTML_NS;
  let head: Element | undefined = doc.head ?? root.getElementsByTagNameNS(ns, 'head')[0];
  if (!head) {
    head = doc.createElementNS(ns, 'head');
    root.prepend(head);
  }
  const meta = doc.createElementNS(ns, 'meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', CHAPTER_POLICY);
  head.prepend(meta);
  return new XMLSerializer().serializeToString(doc);
}
