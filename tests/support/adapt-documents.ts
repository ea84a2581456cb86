/**
 * LE Adapt's test documents, made by the project from the demo courses' own lesson texts
 * (scripts/library-samples.ts reads them), never downloaded: a PDF, a DOCX, a TXT and SCORM 1.2
 * and 2004 packages of one course, and every bad input the pipeline must refuse. The tests and
 * `bench/adapt-pipeline-bench.ts` build them in memory; `npx tsx tests/support/adapt-documents.ts
 * <dir>` writes them to a folder to try by hand in the running product.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { bookPdf, courseBook, longPdf, type Book } from '../../scripts/library-samples';

export const COURSE_DIR = path.resolve('content/courses/respiratory-system');

export const sampleBook = (): Book => courseBook(COURSE_DIR);

const xml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function lessonPdf(book: Book = sampleBook()): Promise<Uint8Array> {
  return bookPdf(book);
}

/** A 50-page PDF for the bench (the demo courses' chapters repeated). */
export function fiftyPagePdf(): Promise<Uint8Array> {
  return longPdf(50, COURSE_DIR);
}

export function lessonTxt(book: Book = sampleBook()): Uint8Array {
  const lines: string[] = [book.title, ''];
  for (const chapter of book.chapters) {
    lines.push(chapter.title, '');
    for (const block of chapter.blocks) {
      if (block.kind === 'heading') lines.push(block.text, '');
      else if (block.kind === 'paragraph') lines.push(block.text, '');
      else if (block.kind === 'list') lines.push(...block.items.map((i) => `- ${i}`), '');
    }
  }
  return strToU8(lines.join('\n'));
}

// ----- DOCX ---------------------------------------------------------------------------------

const DOCX_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`;
const DOCX_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOCX_STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`;

function docxParagraph(text: string, style?: string): string {
  const properties = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${properties}<w:r><w:t xml:space="preserve">${xml(text)}</w:t></w:r></w:p>`;
}

export function lessonDocx(
  book: Book = sampleBook(),
  extra: { documentRels?: string; body?: string; files?: Zippable } = {},
): Uint8Array {
  const body: string[] = [docxParagraph(book.title, 'Heading1')];
  for (const chapter of book.chapters) {
    body.push(docxParagraph(chapter.title, 'Heading1'));
    for (const block of chapter.blocks) {
      if (block.kind === 'heading') body.push(docxParagraph(block.text, 'Heading2'));
      else if (block.kind === 'paragraph') body.push(docxParagraph(block.text));
      else if (block.kind === 'list') body.push(...block.items.map((i) => docxParagraph(i)));
    }
  }
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${body.join('')}${extra.body ?? ''}</w:body></w:document>`;
  return zipSync({
    '[Content_Types].xml': strToU8(DOCX_TYPES),
    '_rels/.rels': strToU8(DOCX_RELS),
    'word/document.xml': strToU8(document),
    'word/styles.xml': strToU8(DOCX_STYLES),
    ...(extra.documentRels ? { 'word/_rels/document.xml.rels': strToU8(extra.documentRels) } : {}),
    ...extra.files,
  });
}

/** A DOCX whose image is linked to a file outside it (the server would be asked to read it). */
export function docxWithExternalImage(): Uint8Array {
  return lessonDocx(sampleBook(), {
    documentRels: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="file:///etc/passwd" TargetMode="External"/><Relationship Id="rId10" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/" TargetMode="External"/></Relationships>`,
  });
}

// ----- SCORM --------------------------------------------------------------------------------

function scoHtml(title: string, paragraphs: string[]): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${xml(title)}</title>
<script>/* the SCO would talk to the LMS here; LE Adapt never runs it */ window.API && API.LMSInitialize('');</script>
</head><body><h1>${xml(title)}</h1>${paragraphs.map((p) => `<p>${xml(p)}</p>`).join('')}</body></html>`;
}

export interface ScormOptions {
  version: '1.2' | '2004';
  /** How many SCOs (the book's chapters repeated to reach it); default one per chapter. */
  scos?: number;
  /** Replaces the manifest (for the bad-input cases). */
  manifest?: string;
  /** Extra entries, e.g. a path that climbs out. */
  files?: Zippable;
}

export function scormPackage(options: ScormOptions, book: Book = sampleBook()): Uint8Array {
  const count = options.scos ?? book.chapters.length;
  const chapters = Array.from({ length: count }, (_, i) => {
    const chapter = book.chapters[i % book.chapters.length]!;
    return {
      id: `sco-${i + 1}`,
      title: count > book.chapters.length ? `${chapter.title} (${i + 1})` : chapter.title,
      paragraphs: chapter.blocks.flatMap((b) =>
        b.kind === 'paragraph' ? [b.text] : b.kind === 'list' ? b.items : [],
      ),
    };
  });
  const is12 = options.version === '1.2';
  const namespaces = is12
    ? 'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"'
    : 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"';
  const scormType = is12 ? 'adlcp:scormtype' : 'adlcp:scormType';
  const manifest =
    options.manifest ??
    `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="lyceum-sample" version="1" ${namespaces}>
  <metadata><schema>ADL SCORM</schema><schemaversion>${is12 ? '1.2' : '2004 4th Edition'}</schemaversion></metadata>
  <organizations default="org-1">
    <organization identifier="org-1"><title>${xml(book.title)}</title>
      <item identifier="module-1"><title>All chapters</title>
${chapters.map((c) => `        <item identifier="item-${c.id}" identifierref="res-${c.id}"><title>${xml(c.title)}</title></item>`).join('\n')}
      </item>
    </organization>
  </organizations>
  <resources>
${chapters.map((c) => `    <resource identifier="res-${c.id}" type="webcontent" ${scormType}="sco" href="content/${c.id}.html"><file href="content/${c.id}.html"/></resource>`).join('\n')}
  </resources>
</manifest>`;
  const files: Zippable = { 'imsmanifest.xml': strToU8(manifest) };
  for (const c of chapters) files[`content/${c.id}.html`] = strToU8(scoHtml(c.title, c.paragraphs));
  return zipSync({ ...files, ...options.files });
}

export const XXE_MANIFEST = `<?xml version="1.0"?>
<!DOCTYPE manifest [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<manifest identifier="x"><organizations default="o"><organization identifier="o"><title>&xxe;</title></organization></organizations><resources/></manifest>`;

export const LAUGHS_MANIFEST = `<?xml version="1.0"?>
<!DOCTYPE manifest [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
<manifest identifier="x"><organizations default="o"><organization identifier="o"><title>&d;&d;&d;</title></organization></organizations><resources/></manifest>`;

/** A package with an entry that climbs out of its folder, or sits at an absolute path. */
export function zipSlipPackage(name = '../../../adapt-zip-slip.html'): Uint8Array {
  return scormPackage({ version: '1.2', files: { [name]: strToU8('<p>escaped</p>') } });
}

/** A package holding a symbolic link (Unix mode 120777) to /etc/passwd. */
export function symlinkPackage(): Uint8Array {
  return scormPackage({
    version: '1.2',
    files: { 'content/link.html': [strToU8('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }] },
  });
}

/** A package whose one entry inflates a thousand times (20 MB of zeros). */
export function ratioBombPackage(): Uint8Array {
  return scormPackage({
    version: '1.2',
    files: { 'content/zeros.bin': [new Uint8Array(20 * 1024 * 1024), { level: 9 }] },
  });
}

/**
 * A package whose entries together claim 320 MB: sixteen entries of 210 KB of noise, stored,
 * whose central directory declares 20 MB each (a ratio under 100, within the ratio
 * limit), so only the total-size limit catches it. Declared sizes are what an attacker
 * controls, and what the reader checks before inflating anything.
 */
export function totalSizeBombPackage(): Uint8Array {
  const files: Zippable = {};
  let seed = 7;
  for (let i = 0; i < 16; i++) {
    const noise = new Uint8Array(210 * 1024);
    for (let b = 0; b < noise.length; b++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      noise[b] = seed >>> 16;
    }
    files[`content/filler-${i}.bin`] = [noise, { level: 0 }];
  }
  const zip = scormPackage({ version: '1.2', files });
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; at + 46 < zip.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength));
    if (name.startsWith('content/filler-')) view.setUint32(at + 24, 20 * 1024 * 1024, true);
  }
  return zip;
}

// ----- PDFs that cannot be read -------------------------------------------------------------

/** A PDF whose user password is not empty: its /U entry matches no key pdf.js can derive. */
export function passwordPdf(): Uint8Array {
  const hex = (n: number) => 'ab'.repeat(n);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>',
    `<< /Filter /Standard /V 1 /R 2 /O <${hex(32)}> /U <${hex(32)}> /P -4 >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Encrypt 4 0 R /ID [<${hex(16)}> <${hex(16)}>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, 'latin1'));
}

export function corruptPdf(): Uint8Array {
  return strToU8(
    '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF',
  );
}

/** Three pages of drawn shapes and no text layer, as a scan looks to a text extractor. */
export async function imageOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 0; n < 3; n++) {
    const page = doc.addPage([300, 400]);
    for (let line = 0; line < 20; line++) {
      page.drawRectangle({
        x: 20,
        y: 360 - line * 16,
        width: 200 + (line % 3) * 20,
        height: 6,
        color: rgb(0.2, 0.2, 0.2),
      });
    }
  }
  return doc.save();
}

// ----- Writing them out ---------------------------------------------------------------------

async function writeAll(dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const files: Record<string, Uint8Array> = {
    'respiratory-system.pdf': await lessonPdf(),
    'respiratory-system.docx': lessonDocx(),
    'respiratory-system.txt': lessonTxt(),
    'respiratory-system-scorm12.zip': scormPackage({ version: '1.2' }),
    'respiratory-system-scorm2004.zip': scormPackage({ version: '2004' }),
    'bad-xxe.zip': scormPackage({ version: '1.2', manifest: XXE_MANIFEST }),
    'bad-zip-slip.zip': zipSlipPackage(),
    'bad-symlink.zip': symlinkPackage(),
    'bad-ratio-bomb.zip': ratioBombPackage(),
    'bad-password.pdf': passwordPdf(),
    'bad-corrupt.pdf': corruptPdf(),
    'bad-scanned.pdf': await imageOnlyPdf(),
    'bad-external.docx': docxWithExternalImage(),
  };
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), bytes);
  console.log(`wrote ${Object.keys(files).length} files to ${dir}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeAll(path.resolve(process.argv[2] ?? 'adapt-samples'));
}
