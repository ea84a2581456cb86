/**
 * The library's stored text (decision 0151): a course file's extracted text is written in one
 * transaction with its pages, replacing any earlier extraction of the same object, so a
 * reader or a search never sees half a document. Who may extract: whoever teaches the
 * course the object belongs to, asked of the database as the caller.
 */
import type { Database, JwtClaims, Queryable } from '../db/types';
import type { Storage } from '../storage/storage';
import {
  extractDocument,
  ExtractionError,
  type DocumentKind,
  type ExtractedDocument,
} from './extract';

export const COURSE_FILES_BUCKET = 'course-files';

export class LibraryError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404,
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LibraryError';
  }
}

export interface StoredDocumentSummary {
  filePath: string;
  kind: DocumentKind;
  title: string;
  sections: number;
  outline: number;
  textChars: number;
}

/** Stores an extraction for the object (its id and path); replaces an earlier one. */
export async function storeDocument(
  tx: Queryable,
  object: { id: string; path: string; courseId: string },
  document: ExtractedDocument,
): Promise<void> {
  await tx.query('delete from public.course_documents where object_id = $1 or file_path = $2', [
    object.id,
    object.path,
  ]);
  await tx.query(
    `insert into public.course_documents
       (object_id, file_path, course_id, kind, title, section_count, outline, text_chars)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
    [
      object.id,
      object.path,
      object.courseId,
      document.kind,
      document.title,
      document.sections.length,
      JSON.stringify(document.outline),
      document.textChars,
    ],
  );
  await insertSections(
    tx,
    'course_document_pages',
    'course_id',
    object.id,
    object.courseId,
    document,
  );
}

/**
 * Writes a document's sections into a page table: the course's (`course_document_pages`, keyed
 * by course) or a learner's own (`kb_document_pages`, keyed by user).
 */
export async function insertSections(
  tx: Queryable,
  table: 'course_document_pages' | 'kb_document_pages',
  ownerColumn: 'course_id' | 'user_id',
  objectId: string,
  ownerId: string,
  document: Pick<ExtractedDocument, 'sections'>,
): Promise<void> {
  // Batches keep each statement's parameter well under PostgreSQL's 1 GB text limit.
  let batch: typeof document.sections = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.query(
      `insert into public.${table} (object_id, ${ownerColumn}, position, label, href, body)
       select $1, $2, p.position, p.label, p.href, p.body
         from jsonb_to_recordset($3::jsonb) as p(position int, label text, href text, body text)`,
      [
        objectId,
        ownerId,
        JSON.stringify(
          batch.map((s) => ({ position: s.position, label: s.label, href: s.href, body: s.text })),
        ),
      ],
    );
    batch = [];
    chars = 0;
  };
  for (const section of document.sections) {
    batch.push(section);
    chars += section.text.length;
    if (chars > 5_000_000 || batch.length >= 500) await flush();
  }
  await flush();
}

function kindOf(path: string): DocumentKind | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.epub')) return 'epub';
  return null;
}

/**
 * The course editor's call after an upload: reads the object, extracts its text and stores
 * it. A file that cannot be read throws ExtractionError and stores nothing; the editor then
 * removes the upload and shows the message.
 */
export async function extractCourseFile(
  deps: { db: Database; storage: Storage },
  claims: JwtClaims,
  path: string,
): Promise<StoredDocumentSummary> {
  const kind = kindOf(path);
  if (!kind)
    throw new LibraryError(400, 'invalid_input', 'Only .pdf and .epub files have text to extract.');
  const { rows } = await deps.db.queryAsRole<{ course: string | null; teaches: boolean }>(
    claims,
    `select learning.object_course($1) as course,
            coalesce(learning.teaches(auth.uid(), learning.object_course($1)), false) as teaches`,
    [path],
  );
  const course = rows[0]?.course;
  if (!course || !rows[0]?.teaches) {
    throw new LibraryError(403, 'forbidden', 'Only those who teach the course can add its files.');
  }
  const object = await deps.storage.getObject(COURSE_FILES_BUCKET, path);
  if (!object) throw new LibraryError(404, 'not_found', 'There is no such file in the course.');
  const document = await extractDocument(kind, new Uint8Array(object.bytes));
  await deps.db.transaction((tx) =>
    storeDocument(tx, { id: object.row.id, path, courseId: course }, document),
  );
  return {
    filePath: path,
    kind,
    title: document.title,
    sections: document.sections.length,
    outline: document.outline.length,
    textChars: document.textChars,
  };
}

export { ExtractionError };
