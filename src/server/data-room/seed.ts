/**
 * First start: registry rows and bucket files from content/data-room/. Runs once per
 * database (a marker in data_room.settings); after that the registry is the source of truth
 * and a deleted or replaced file stays the admin's decision.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/types';
import type { Storage } from '../storage/storage';
import type { Logger } from '../logger';
import { catalog, type CatalogDocument } from './catalog';

export const DATA_ROOM_BUCKET = 'data-room';
const SEEDED_SETTING = 'seeded_at';
const EDITION_SETTING = 'edition';
const SEED_EDITION = '2.0';

export function defaultContentDir(): string {
  return path.resolve('content/data-room');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export async function seedDataRoom(
  db: Database,
  storage: Storage,
  log: Logger,
  options: { contentDir?: string; documents?: readonly CatalogDocument[] } = {},
): Promise<{ seeded: boolean; documents: number }> {
  const contentDir = options.contentDir ?? defaultContentDir();
  const documents = options.documents ?? catalog;

  // Claim the seed first so a second process starting at the same time skips it.
  const claimed = await db.query(
    `insert into data_room.settings (key, value) values ($1, 'in progress')
     on conflict (key) do nothing returning key`,
    [SEEDED_SETTING],
  );
  if (claimed.rows.length === 0) return { seeded: false, documents: 0 };

  try {
    const files = documents.map((doc) => {
      const file = path.join(contentDir, doc.path);
      return fs.existsSync(file) ? fs.readFileSync(file) : undefined;
    });
    await db.transaction(async (tx) => {
      for (const [index, doc] of documents.entries()) {
        const { rows } = await tx.query<{ id: string }>(
          `insert into data_room.documents
             (tab, section_number, section_title, position, name, path, version, document_date)
           values ($1, $2, $3, $4, $5, $6, $7, $8)
           on conflict (path) do update set position = excluded.position
           returning id`,
          [
            doc.tab,
            doc.sectionNumber,
            doc.sectionTitle,
            index + 1,
            doc.name,
            doc.path,
            doc.version,
            doc.date,
          ],
        );
        const bytes = files[index];
        if (!bytes) continue;
        await tx.query(
          `insert into data_room.document_versions
             (document_id, version, document_date, size_bytes, sha256, note, uploaded_by)
           values ($1, $2, $3, $4, $5, 'Sample investor pack', 'seed')
           on conflict (document_id, version) do nothing`,
          [rows[0]!.id, doc.version, doc.date, bytes.byteLength, sha256Hex(bytes)],
        );
      }
    });
    // Files are written in parallel; the database still runs their rows one at a time.
    await Promise.all(
      documents.map((doc, index) => {
        const bytes = files[index];
        return bytes
          ? storage.putObject(DATA_ROOM_BUCKET, doc.path, bytes, 'text/markdown; charset=utf-8')
          : undefined;
      }),
    );
    const missing = documents.filter((_, index) => !files[index]).map((doc) => doc.path);
    if (missing.length > 0)
      log.warn('data room seed: files missing, documents registered as unavailable', { missing });
    await db.query(
      `insert into data_room.settings (key, value) values ($1, $2) on conflict (key) do nothing`,
      [EDITION_SETTING, SEED_EDITION],
    );
    await db.query(
      `update data_room.settings set value = now()::text, updated_at = now() where key = $1`,
      [SEEDED_SETTING],
    );
    log.info('data room seeded', { documents: documents.length, missing: missing.length });
    return { seeded: true, documents: documents.length };
  } catch (error) {
    // Let the next start try again rather than leave a half-seeded room marked done.
    await db.query('delete from data_room.settings where key = $1', [SEEDED_SETTING]);
    throw error;
  }
}
