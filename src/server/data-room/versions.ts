/**
 * Publishing a new version of a registered document (admins only): the file in the bucket is
 * replaced, the registry points at the new version, and the history keeps every version.
 */
import { z } from 'zod';
import type { Database } from '../db/types';
import type { Storage } from '../storage/storage';
import { listVersions, type DocumentVersion } from './registry';
import { DATA_ROOM_BUCKET, sha256Hex } from './seed';

export const MAX_DOCUMENT_BYTES = 1024 * 1024;
const VERSION = /^[0-9]{1,3}(\.[0-9]{1,3}){1,2}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export class VersionError extends Error {
  constructor(
    public readonly status: 400 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'VersionError';
  }
}

export interface NewVersion {
  path: string;
  content: string;
  version: string;
  /** ISO date of the version; today when omitted. */
  date?: string;
  note?: string;
  uploadedBy: string;
}

const contentMessage = '"content" must be the document\'s Markdown text.';
const versionMessage = '"version" must look like "2.1" or "2.1.3".';
const dateMessage = '"date" must be a date such as "2025-10-04".';
const noteMessage = '"note" must be text of at most 500 characters.';

/** The body of a new version, as the admin's client sends it (checked at the edge). */
export const newVersionSchema = z.object({
  content: z.string({ error: contentMessage }).refine((text) => text.trim() !== '', contentMessage),
  version: z.string({ error: versionMessage }).regex(VERSION, versionMessage),
  date: z
    .string({ error: dateMessage })
    .regex(ISO_DATE, dateMessage)
    .refine((date) => !Number.isNaN(Date.parse(date)), dateMessage)
    .optional(),
  note: z.string({ error: noteMessage }).max(500, noteMessage).optional(),
});

export type NewVersionBody = z.output<typeof newVersionSchema>;

/** What the schema cannot say in a sentence of its own: the document's size in bytes. */
export function checkVersionSize(input: NewVersionBody): void {
  const size = Buffer.byteLength(input.content, 'utf8');
  if (size > MAX_DOCUMENT_BYTES)
    throw new VersionError(
      413,
      `The document is ${size} bytes; a data room document may have at most ${MAX_DOCUMENT_BYTES} bytes (1 MiB).`,
    );
}

export async function publishVersion(
  db: Database,
  storage: Storage,
  input: NewVersion,
): Promise<DocumentVersion[]> {
  const { rows } = await db.query<{ id: string }>(
    `select id from data_room.documents where path = $1 and status = 'active'`,
    [input.path],
  );
  const document = rows[0];
  if (!document) throw new VersionError(404, `No document is registered at "${input.path}".`);
  const existing = await db.query(
    'select 1 from data_room.document_versions where document_id = $1 and version = $2',
    [document.id, input.version],
  );
  if (existing.rows.length > 0)
    throw new VersionError(
      409,
      `Version ${input.version} of "${input.path}" already exists; choose a new version number.`,
    );

  const bytes = Buffer.from(input.content, 'utf8');
  const date = input.date ?? new Date().toISOString().slice(0, 10);
  await storage.putObject(DATA_ROOM_BUCKET, input.path, bytes, 'text/markdown; charset=utf-8');
  await db.transaction(async (tx) => {
    await tx.query(
      `update data_room.documents set version = $2, document_date = $3, updated_at = now() where id = $1`,
      [document.id, input.version, date],
    );
    await tx.query(
      `insert into data_room.document_versions
         (document_id, version, document_date, size_bytes, sha256, note, uploaded_by)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        document.id,
        input.version,
        date,
        bytes.byteLength,
        sha256Hex(bytes),
        input.note ?? null,
        input.uploadedBy,
      ],
    );
  });
  return listVersions(db, input.path);
}
