/**
 * A learner's own knowledge base (decision 0221): files in the private `kb_files` bucket, under
 * the learner's own folder, whose text the study coach's General Knowledge mode searches for
 * them alone. PDF and ePub go through the library's extraction (extract.ts); plain text and
 * Markdown are read as UTF-8 and cut into parts at paragraph breaks. One transaction stores the
 * document and its parts, replacing an earlier extraction; a file that cannot be read stores
 * nothing and says why.
 */
import type { Database, JwtClaims } from '../db/types';
import type { Storage } from '../storage/storage';
import { insertSections, LibraryError } from './documents';
import {
  extractDocument,
  ExtractionError,
  type ExtractedDocument,
  type ExtractedSection,
} from './extract';

export const KB_FILES_BUCKET = 'kb_files';

/** Longest part of a text file: a passage the search can quote, not a whole book. */
const TEXT_PART_CHARS = 20_000;
const TEXT_MAX_CHARS = 5_000_000;

export interface OwnDocumentSummary {
  filePath: string;
  kind: 'pdf' | 'epub' | 'text';
  title: string;
  sections: number;
  textChars: number;
}

function kindOf(path: string): OwnDocumentSummary['kind'] | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.epub')) return 'epub';
  if (lower.endsWith('.txt') || lower.endsWith('.md') || lower.endsWith('.markdown')) return 'text';
  return null;
}

/** A text file's parts: paragraphs gathered up to TEXT_PART_CHARS each. */
export function textSections(text: string): ExtractedSection[] {
  const sections: ExtractedSection[] = [];
  let current = '';
  const push = () => {
    if (current.trim()) {
      sections.push({ position: sections.length + 1, label: '', href: null, text: current.trim() });
    }
    current = '';
  };
  for (const paragraph of text.split(/\n\s*\n/)) {
    for (let start = 0; start < paragraph.length; start += TEXT_PART_CHARS) {
      const piece = paragraph.slice(start, start + TEXT_PART_CHARS);
      if (current.length + piece.length + 2 > TEXT_PART_CHARS) push();
      current += `${current ? '\n\n' : ''}${piece}`;
    }
  }
  push();
  return sections;
}

function readText(
  bytes: Uint8Array,
  name: string,
): Pick<ExtractedDocument, 'title' | 'sections' | 'textChars'> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ExtractionError(
      422,
      'corrupt',
      'The file is not UTF-8 text. Save it as UTF-8 (or as a PDF) and upload it again.',
    );
  }
  if (text.length > TEXT_MAX_CHARS) {
    throw new ExtractionError(
      413,
      'too_large',
      `The file holds ${text.length.toLocaleString('en')} characters; up to ${TEXT_MAX_CHARS.toLocaleString('en')} can be indexed.`,
    );
  }
  const sections = textSections(text);
  if (sections.length === 0) {
    throw new ExtractionError(422, 'corrupt', 'The file has no text in it.');
  }
  const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
  return {
    title: (heading ?? name).slice(0, 500),
    sections,
    textChars: sections.reduce((sum, s) => sum + s.text.length, 0),
  };
}

/** Extracts and stores the text of one of the caller's own files (`<user id>/<name>`). */
export async function extractOwnFile(
  deps: { db: Database; storage: Storage },
  claims: JwtClaims,
  path: string,
): Promise<OwnDocumentSummary> {
  const userId = claims.sub;
  // The folder is the owner: a path in another learner's folder reads as missing.
  if (!userId || path.split('/')[0] !== userId || path.split('/').length !== 2) {
    throw new LibraryError(404, 'not_found', 'You have no such file.');
  }
  const kind = kindOf(path);
  if (!kind) {
    throw new LibraryError(
      400,
      'invalid_input',
      'Only .pdf, .epub, .txt and .md files have text the coach can read.',
    );
  }
  const object = await deps.storage.getObject(KB_FILES_BUCKET, path);
  if (!object) throw new LibraryError(404, 'not_found', 'You have no such file.');
  const name = path.slice(userId.length + 1);
  const bytes = new Uint8Array(object.bytes);
  const document = kind === 'text' ? readText(bytes, name) : await extractDocument(kind, bytes);
  await deps.db.transaction(async (tx) => {
    await tx.query('delete from public.kb_documents where object_id = $1 or file_path = $2', [
      object.row.id,
      path,
    ]);
    await tx.query(
      `insert into public.kb_documents
         (object_id, user_id, file_path, kind, title, section_count, text_chars)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        object.row.id,
        userId,
        path,
        kind,
        document.title || name,
        document.sections.length,
        document.textChars,
      ],
    );
    await insertSections(tx, 'kb_document_pages', 'user_id', object.row.id, userId, document);
  });
  return {
    filePath: path,
    kind,
    title: document.title || name,
    sections: document.sections.length,
    textChars: document.textChars,
  };
}
