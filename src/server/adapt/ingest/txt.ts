/** Plain text (UTF-8, with or without a byte-order mark): one block per paragraph. */
import type { ExtractedText } from '../lesson';
import { IngestError } from './ingest-error';

export function readTxt(bytes: Uint8Array): ExtractedText {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new IngestError(
      'corrupt',
      'This text file is not UTF-8. Save it as UTF-8 text and upload it again.',
    );
  }
  if (text.includes('\u0000')) {
    throw new IngestError('wrong_extension', 'This file holds binary data, not text.');
  }
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/[ \t]+/g, ' ').trim())
    .filter((p) => p !== '');
  if (paragraphs.length === 0) throw new IngestError('no_text', 'This text file is empty.');
  return {
    format: 'txt',
    title: null,
    blocks: paragraphs.map((p, i) => ({
      text: p,
      source: { kind: 'paragraph', paragraph: i + 1 },
    })),
  };
}
