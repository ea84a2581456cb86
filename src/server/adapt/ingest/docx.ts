/**
 * DOCX text through mammoth, paragraph by paragraph, headings kept as Markdown `#` lines so the
 * structuring stage finds the sections. The archive is checked and inflated by safe-zip first,
 * and mammoth reads a copy rebuilt from those bounded entries, never the upload itself (its own
 * unzip would inflate whatever sizes the file claims). A document that points outside itself
 * (a linked image, template, sub-document or OLE object: the server would be asked to fetch
 * or open it) is refused; hyperlinks are only text and stay.
 */
import { strFromU8, zipSync } from 'fflate';
import mammoth from 'mammoth';
import { xhtmlText } from '../../library/extract';
import type { ExtractedBlock, ExtractedText } from '../lesson';
import { IngestError } from './ingest-error';
import { safeUnzip } from './safe-zip';

const HYPERLINK_TYPE = /\/hyperlink$/;

/** External relationships other than hyperlinks, as "type → target". */
export function externalReferences(files: Record<string, Uint8Array>): string[] {
  const found: string[] = [];
  for (const [name, bytes] of Object.entries(files)) {
    if (!name.endsWith('.rels')) continue;
    const xml = strFromU8(bytes);
    for (const match of xml.matchAll(/<Relationship\b[^>]*>/g)) {
      const tag = match[0];
      if (!/TargetMode\s*=\s*["']External["']/i.test(tag)) continue;
      const type = /Type\s*=\s*["']([^"']*)["']/.exec(tag)?.[1] ?? '';
      if (HYPERLINK_TYPE.test(type)) continue;
      const target = /Target\s*=\s*["']([^"']*)["']/.exec(tag)?.[1] ?? '';
      found.push(`${type.split('/').pop() ?? 'reference'} → ${target.slice(0, 120)}`);
    }
  }
  return found;
}

export async function readDocx(bytes: Uint8Array): Promise<ExtractedText> {
  const files = safeUnzip(bytes, 'Word document');
  if (!files['word/document.xml']) {
    throw new IngestError('corrupt', 'This Word document has no word/document.xml inside.');
  }
  if (
    Object.values(files).some((f) => /<!DOCTYPE|<!ENTITY/i.test(strFromU8(f.subarray(0, 4096))))
  ) {
    throw new IngestError(
      'unsafe_xml',
      'This Word document declares a DTD or entities; Word never writes them, so it is refused.',
    );
  }
  const external = externalReferences(files);
  if (external.length > 0) {
    throw new IngestError(
      'external_reference',
      `This Word document refers to files outside itself (${external.slice(0, 3).join('; ')}). Embed them, or remove the links, and upload it again.`,
    );
  }
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(zipSync(files, { level: 0 })) },
      {
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    html = result.value;
  } catch (error) {
    throw new IngestError(
      'corrupt',
      `This Word document cannot be read (${(error as Error).message.slice(0, 200)}).`,
    );
  }
  const blocks: ExtractedBlock[] = [];
  let paragraph = 0;
  for (const match of html.matchAll(/<(h[1-6]|p|li|td|th)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const tag = match[1]!;
    const text = xhtmlText(match[2]!).replace(/\s+/g, ' ').trim();
    if (!text) continue;
    paragraph += 1;
    const level = tag[0] === 'h' ? Number(tag[1]) : 0;
    blocks.push({
      text: level > 0 ? `${'#'.repeat(level)} ${text}` : tag === 'li' ? `- ${text}` : text,
      source: { kind: 'paragraph', paragraph },
    });
  }
  if (blocks.length === 0) {
    throw new IngestError('no_text', 'This Word document has no text to adapt.');
  }
  const heading = blocks.find((b) => b.text.startsWith('# '));
  return { format: 'docx', title: heading ? heading.text.slice(2) : null, blocks };
}
