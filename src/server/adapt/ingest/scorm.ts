/**
 * SCORM 1.2 and 2004 packages: the manifest's default organization walked in order, and the
 * text of each SCO's launch page, with the SCO as the source position. The archive goes
 * through safe-zip (zip slip, symlinks, bombs); the manifest is refused when it declares a
 * DTD or entities (XXE and entity expansion: no SCORM manifest needs either), and the parser
 * expands none. Launch pages are reduced to text; nothing in them runs or is fetched.
 */
import path from 'node:path';
import { strFromU8 } from 'fflate';
import parser from 'fast-xml-parser';
import { xhtmlText } from '../../library/extract';
import type { ExtractedBlock, ExtractedText } from '../lesson';
import { IngestError } from './ingest-error';
import { safeUnzip, unsafePathReason } from './safe-zip';

export type ScormVersion = '1.2' | '2004';

type XmlNode = Record<string, unknown>;

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

const text = (value: unknown): string =>
  typeof value === 'string'
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : value && typeof value === 'object' && '#text' in value
        ? String((value as XmlNode)['#text']).trim()
        : '';

function parseManifest(xml: string): XmlNode {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) {
    throw new IngestError(
      'unsafe_xml',
      "This package's imsmanifest.xml declares a DTD or entities (<!DOCTYPE or <!ENTITY>). SCORM manifests need neither, and such declarations can read server files or expand without end, so the package is refused.",
    );
  }
  const valid = parser.validate(xml);
  if (valid !== true) {
    throw new IngestError(
      'not_scorm',
      `This package's imsmanifest.xml is not well-formed XML (line ${valid.err.line}: ${valid.err.msg}).`,
    );
  }
  return parser.parse(xml, {
    ignoreAttributes: false,
    attributeNamePrefix: '',
    ignoreNameSpace: true,
    parseAttributeValue: false,
    parseNodeValue: false,
    trimValues: true,
  }) as XmlNode;
}

export function scormVersion(manifest: XmlNode, raw: string): ScormVersion {
  const metadata = (manifest.metadata ?? {}) as XmlNode;
  const declared = text(metadata.schemaversion);
  if (declared === '1.2' || raw.includes('adlcp_rootv1p2')) return '1.2';
  if (/2004|CAM 1\.3/i.test(declared) || raw.includes('adlcp_v1p3')) return '2004';
  throw new IngestError(
    'not_scorm',
    "This package's imsmanifest.xml says neither SCORM 1.2 nor SCORM 2004 (its schemaversion and namespaces name neither).",
  );
}

interface Sco {
  identifier: string;
  title: string;
  href: string;
}

/** The SCOs of the default organization, depth first, as the LMS would play them. */
function scosInOrder(manifest: XmlNode): Sco[] {
  const organizations = (manifest.organizations ?? {}) as XmlNode;
  const list = asArray(organizations.organization as XmlNode | XmlNode[] | undefined);
  const wanted = text(organizations.default);
  const organization = list.find((o) => text(o.identifier) === wanted) ?? list[0];
  if (!organization) {
    throw new IngestError('not_scorm', "This package's manifest has no organization of items.");
  }
  const resourcesNode = (manifest.resources ?? {}) as XmlNode;
  const rootBase = text(manifest.base) + text(resourcesNode.base);
  const resources = new Map<string, XmlNode>();
  for (const resource of asArray(resourcesNode.resource as XmlNode | XmlNode[] | undefined)) {
    resources.set(text(resource.identifier), resource);
  }
  const scos: Sco[] = [];
  const walk = (items: XmlNode[]) => {
    for (const item of items) {
      const ref = text(item.identifierref);
      const resource = ref ? resources.get(ref) : undefined;
      const type = text(resource?.scormtype ?? resource?.scormType).toLowerCase();
      const href = text(resource?.href);
      if (resource && type === 'sco' && href) {
        scos.push({
          identifier: text(item.identifier) || ref,
          title: text(item.title) || ref,
          href: `${rootBase}${text(resource.base)}${href}`,
        });
      }
      walk(asArray(item.item as XmlNode | XmlNode[] | undefined));
    }
  };
  walk(asArray(organization.item as XmlNode | XmlNode[] | undefined));
  return scos;
}

/**
 * A launch page's text, its headings kept as Markdown (one level below the SCO's own) and its
 * blocks a blank line apart; a first heading that repeats the SCO's title is dropped.
 */
function scoText(html: string, title: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const marked = body
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<h([1-6])[^>]*>([\s\S]*?)<\/h\1>/gi, (_, level: string, inner: string) => {
      const text = xhtmlText(inner).replace(/\s+/g, ' ');
      return `\n\n${'#'.repeat(Math.min(6, Number(level) + 1))} ${text}\n\n`;
    })
    .replace(/<\/(p|div|li|tr|section|blockquote|pre|table|ul|ol)>/gi, '$&\n\n');
  const paragraphs = marked
    .split(/\n\s*\n/)
    .map((chunk) =>
      chunk.trim().startsWith('#') ? chunk.trim() : xhtmlText(chunk).replace(/\s+/g, ' '),
    )
    .filter((p) => p !== '');
  if (paragraphs[0]?.replace(/^#+\s*/, '') === title) paragraphs.shift();
  return paragraphs.join('\n\n');
}

export function readScorm(bytes: Uint8Array): ExtractedText & { version: ScormVersion } {
  const files = safeUnzip(bytes, 'SCORM package');
  const manifestBytes = files['imsmanifest.xml'];
  if (!manifestBytes) {
    throw new IngestError(
      'not_scorm',
      'This ZIP has no imsmanifest.xml at its top level, so it is not a SCORM package.',
    );
  }
  const raw = strFromU8(manifestBytes);
  const manifest = (parseManifest(raw).manifest ?? {}) as XmlNode;
  const version = scormVersion(manifest, raw);
  const scos = scosInOrder(manifest);
  if (scos.length === 0) {
    throw new IngestError('not_scorm', "This package's default organization launches no SCO.");
  }
  const blocks: ExtractedBlock[] = [];
  scos.forEach((sco, index) => {
    const href = decodeURIComponent(sco.href.split(/[?#]/)[0]!);
    const inside = path.posix.normalize(href);
    const unsafe = unsafePathReason(inside);
    if (unsafe || inside.startsWith('../')) {
      throw new IngestError(
        'unsafe_path',
        `SCO "${sco.title}" launches "${sco.href.slice(0, 120)}", a path that ${unsafe ?? 'leaves the package'}; the package is refused.`,
      );
    }
    const page = files[inside];
    if (!page) {
      throw new IngestError(
        'corrupt',
        `SCO "${sco.title}" launches "${inside}", which is not in the package.`,
      );
    }
    const body = scoText(strFromU8(page), sco.title);
    if (!body) return;
    blocks.push({
      text: `# ${sco.title}\n\n${body}`,
      source: {
        kind: 'sco',
        sco: sco.identifier,
        title: sco.title,
        order: index + 1,
        href: inside,
      },
    });
  });
  if (blocks.length === 0) {
    throw new IngestError('no_text', 'The SCOs of this package hold no text to adapt.');
  }
  const organizations = (manifest.organizations ?? {}) as XmlNode;
  const first = asArray(organizations.organization as XmlNode | XmlNode[] | undefined)[0];
  return { format: 'scorm', title: text(first?.title) || null, blocks, version };
}
