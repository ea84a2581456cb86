/**
 * Which reader a file goes to: decided by its content, then checked against its extension, so
 * a ZIP named `.pdf` or a PDF named `.txt` is refused with what it really holds.
 */
import type { SourceFormat } from '../lesson';
import { IngestError } from './ingest-error';
import { isZip, readZipDirectory } from './safe-zip';

export type FileFormat = Exclude<SourceFormat, 'prompt'>;

const EXTENSIONS: Record<string, FileFormat> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'txt',
  '.text': 'txt',
  '.md': 'txt',
  '.zip': 'scorm',
};

const CONTENT_NAMES: Record<FileFormat | 'zip' | 'binary', string> = {
  pdf: 'a PDF document',
  docx: 'a Word document (DOCX)',
  txt: 'plain text',
  scorm: 'a SCORM package',
  zip: 'a ZIP archive that is neither a SCORM package nor a Word document',
  binary: 'binary data that is not a PDF, DOCX, SCORM package or text',
};

export const ACCEPTED_EXTENSIONS = Object.keys(EXTENSIONS);

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

/** What the bytes are, by their first bytes and, for a ZIP, the names inside. */
export function sniffContent(bytes: Uint8Array): FileFormat | 'zip' | 'binary' {
  if (new TextDecoder().decode(bytes.subarray(0, 1024)).includes('%PDF-')) return 'pdf';
  if (isZip(bytes)) {
    let names: string[];
    try {
      names = readZipDirectory(bytes, 'archive').map((e) => e.name);
    } catch {
      return 'zip';
    }
    if (names.includes('imsmanifest.xml')) return 'scorm';
    if (names.includes('word/document.xml')) return 'docx';
    return 'zip';
  }
  const head = bytes.subarray(0, 64 * 1024);
  if (head.includes(0)) return 'binary';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastWholeChar(head)));
    return 'txt';
  } catch {
    return 'binary';
  }
}

/** A sample may end inside a UTF-8 sequence; decode up to the last whole character. */
function lastWholeChar(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!;
    if ((byte & 0xc0) === 0xc0) return end - back;
    if ((byte & 0x80) === 0) break;
  }
  return end;
}

/** The file's format, or an IngestError saying why it cannot be read as named. */
export function detectFormat(name: string, bytes: Uint8Array): FileFormat {
  const extension = extensionOf(name);
  const named = EXTENSIONS[extension];
  if (!named) {
    throw new IngestError(
      'unsupported',
      `"${name}" is not a file LE Adapt reads: upload a PDF, DOCX, TXT or a SCORM package (.zip).`,
    );
  }
  const content = sniffContent(bytes);
  if (content !== named) {
    throw new IngestError(
      'wrong_extension',
      `"${name}" is named ${extension} but holds ${CONTENT_NAMES[content]}. Rename it or upload the right file.`,
    );
  }
  return named;
}
