/**
 * The demo courses' sample readers (content/library/<course slug>-reader.pdf|epub, made by
 * scripts/library-samples.ts): each becomes the last lesson of its course's last module,
 * with its text extracted and indexed like an instructor's upload. Runs right after the demo
 * seed of a first embedded start (decision 0101); a file that is missing or unreadable is
 * skipped with a warning, never a failed start.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '../db/types';
import type { Logger } from '../logger';
import type { Storage } from '../storage/storage';
import { demoOrganization } from '../learning/demo-seed';
import { COURSE_FILES_BUCKET, storeDocument } from './documents';
import { extractDocument, type DocumentKind } from './extract';

export function defaultLibraryDir(): string {
  return path.resolve('content/library');
}

const contentTypes: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
};

export async function seedDemoReadings(
  db: Database,
  storage: Storage,
  log: Logger,
  options: { libraryDir?: string } = {},
): Promise<string[]> {
  const dir = options.libraryDir ?? defaultLibraryDir();
  if (!fs.existsSync(dir)) return [];
  const added: string[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const match = /^([a-z0-9-]+)-reader\.(pdf|epub)$/.exec(name);
    if (!match) continue;
    const [, slug, kind] = match as unknown as [string, string, DocumentKind];
    try {
      const { rows } = await db.query<{ course: string; module: string; next: number }>(
        `select c.id as course, m.id as module,
                coalesce((select max(l.position) from public.lessons l where l.module_id = m.id), 0) + 1 as next
           from public.courses c
           join public.organizations o on o.id = c.organization_id
           join public.modules m on m.course_id = c.id
          where o.slug = $1 and c.slug = $2
            and not exists (select 1 from public.lessons l
                             where l.course_id = c.id and l.slug = 'course-reader')
          order by m.position desc
          limit 1`,
        [demoOrganization.slug, slug],
      );
      const target = rows[0];
      if (!target) continue;
      const bytes = new Uint8Array(fs.readFileSync(path.join(dir, name)));
      const document = await extractDocument(kind, bytes);
      const objectPath = `${target.course}/${name}`;
      const object = await storage.putObject(
        COURSE_FILES_BUCKET,
        objectPath,
        bytes,
        contentTypes[kind],
        { upsert: true },
      );
      await db.transaction(async (tx) => {
        await storeDocument(
          tx,
          { id: object.id, path: objectPath, courseId: target.course },
          document,
        );
        await tx.query(
          `insert into public.lessons
             (module_id, course_id, position, slug, title, kind, file_path, estimated_minutes)
           values ($1, $2, $3, 'course-reader', $4, $5, $6, 60)`,
          [
            target.module,
            target.course,
            target.next,
            `Course reader (${kind === 'pdf' ? 'PDF' : 'ePub'}, sample)`,
            kind,
            objectPath,
          ],
        );
      });
      added.push(name);
    } catch (error) {
      log.warn('demo seed: sample reader skipped', {
        file: name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (added.length > 0) log.info('demo seed: sample readers added', { files: added });
  return added;
}
