/**
 * PDF text, page by page, through the library's extractor (pdf.js with evaluation off, decision
 * 0151). A PDF whose pages carry no text layer is a scan: there is no OCR, and the job says so
 * instead of producing an empty lesson.
 */
import { extractDocument, ExtractionError } from '../../library/extract';
import type { ExtractedText } from '../lesson';
import { IngestError, INGEST_LIMITS } from './ingest-error';

/**
 * Running headers and footers ("12 · Course reader") repeat on most pages; they are not the
 * lesson's text. A short line that recurs, numbers aside, on at least three pages and 40 % of
 * them is dropped.
 */
function withoutRunningLines<T extends { text: string }>(pages: T[]): T[] {
  if (pages.length < 3) return pages;
  const shape = (line: string) => line.trim().replace(/\d+/g, '#');
  const seen = new Map<string, number>();
  for (const page of pages) {
    for (const line of new Set(page.text.split('\n').map(shape))) {
      if (line !== '' && line.length <= 80) seen.set(line, (seen.get(line) ?? 0) + 1);
    }
  }
  const running = new Set(
    [...seen.entries()]
      .filter(([, count]) => count >= 3 && count >= pages.length * 0.4)
      .map(([line]) => line),
  );
  if (running.size === 0) return pages;
  return pages.map((page) => ({
    ...page,
    text: page.text
      .split('\n')
      .filter((line) => !running.has(shape(line)))
      .join('\n')
      .trim(),
  }));
}

export async function readPdf(bytes: Uint8Array): Promise<ExtractedText> {
  let document;
  try {
    document = await extractDocument('pdf', bytes, { markHeadings: true });
  } catch (error) {
    if (!(error instanceof ExtractionError)) throw error;
    const code =
      error.code === 'encrypted'
        ? 'encrypted'
        : error.code === 'too_large'
          ? 'too_large'
          : error.code === 'not_pdf'
            ? 'wrong_extension'
            : 'corrupt';
    throw new IngestError(code, error.message);
  }
  if (document.sections.length > INGEST_LIMITS.maxPdfPages) {
    throw new IngestError(
      'too_large',
      `The PDF has ${document.sections.length} pages; up to ${INGEST_LIMITS.maxPdfPages} can be adapted.`,
    );
  }
  const pages = withoutRunningLines(document.sections).filter((s) => s.text.trim() !== '');
  if (pages.length === 0) {
    throw new IngestError(
      'no_text',
      `This PDF has ${document.sections.length} page${document.sections.length === 1 ? '' : 's'} but no text layer: it looks scanned. OCR is not available, so upload a PDF with selectable text, or a DOCX or TXT copy.`,
    );
  }
  return {
    format: 'pdf',
    title: document.title || null,
    blocks: pages.map((s) => ({ text: s.text, source: { kind: 'page', page: s.position } })),
  };
}
