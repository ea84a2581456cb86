/**
 * The rules of a lesson, checked in the form before anything is sent (the database checks
 * them again): a title, 1–600 minutes, and content that matches the kind — Markdown of at
 * most 1 MB, a video address the lesson page can play (lib/video-embed), or a PDF or ePub
 * file within the course-files bucket's 100 MB.
 */
import { z } from 'zod';
import { videoEmbed } from '@/lib/video-embed';

/** The database's limit on a Markdown body (`octet_length(body) <= 1048576`). */
export const MARKDOWN_LIMIT_BYTES = 1024 * 1024;
/** The course-files bucket's file_size_limit (db/app/0324). */
export const FILE_LIMIT_BYTES = 100 * 1024 * 1024;

export const fileKinds = {
  pdf: { extension: '.pdf', types: ['application/pdf'], label: 'PDF' },
  epub: { extension: '.epub', types: ['application/epub+zip'], label: 'ePub' },
} as const;

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const title = z
  .string()
  .trim()
  .min(1, 'Give the lesson a title.')
  .max(200, 'A title is limited to 200 characters.');
const minutes = z
  .number({ error: 'Enter the minutes as a whole number.' })
  .int('Enter the minutes as a whole number.')
  .min(1, 'A lesson takes at least 1 minute.')
  .max(600, 'A lesson takes at most 600 minutes; split a longer one.');

export const videoUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the video’s address.')
  .max(2048, 'The address is limited to 2,048 characters.')
  .refine((url) => /^https:\/\/\S+$/.test(url), 'Use an https:// address without spaces.')
  .refine(
    (url) => videoEmbed(url).kind !== 'link',
    'Use a YouTube or Vimeo address, or the address of an .mp4, .webm or .ogv file.',
  );

function fileSchema(kind: keyof typeof fileKinds) {
  const rule = fileKinds[kind];
  return z
    .instanceof(File, { error: `Choose a ${rule.label} file.` })
    .refine((file) => file.size > 0, 'This file is empty.')
    .superRefine((file, ctx) => {
      if (file.size > FILE_LIMIT_BYTES) {
        ctx.addIssue({
          code: 'custom',
          message: `Files are limited to 100 MB; this one is ${formatBytes(file.size)}.`,
        });
      }
    })
    .refine(
      (file) =>
        file.name.toLowerCase().endsWith(rule.extension) ||
        (rule.types as readonly string[]).includes(file.type),
      `Choose a ${rule.label} file (${rule.extension}).`,
    );
}

const fileLesson = (kind: keyof typeof fileKinds) =>
  z
    .object({
      kind: z.literal(kind),
      title,
      estimatedMinutes: minutes,
      /** A new file to upload, or none to keep `filePath`. */
      file: fileSchema(kind).nullable(),
      filePath: z.string().nullable(),
    })
    .refine((lesson) => lesson.file !== null || lesson.filePath !== null, {
      path: ['file'],
      message: `Choose a ${fileKinds[kind].label} file to upload.`,
    });

export const lessonSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('markdown'),
    title,
    estimatedMinutes: minutes,
    body: z.string().superRefine((body, ctx) => {
      const bytes = byteLength(body);
      if (bytes > MARKDOWN_LIMIT_BYTES) {
        ctx.addIssue({
          code: 'custom',
          message: `Markdown is limited to 1 MB (${MARKDOWN_LIMIT_BYTES.toLocaleString('en-GB')} bytes); this text is ${bytes.toLocaleString('en-GB')} bytes. Split it into two lessons.`,
        });
      }
    }),
  }),
  z.object({
    kind: z.literal('video'),
    title,
    estimatedMinutes: minutes,
    videoUrl: videoUrlSchema,
  }),
  fileLesson('pdf'),
  fileLesson('epub'),
]);

export type LessonInput = z.infer<typeof lessonSchema>;

/** The form's state: every kind's content kept, so switching kind loses nothing typed. */
export interface LessonDraft {
  kind: LessonInput['kind'];
  title: string;
  estimatedMinutes: string;
  body: string;
  videoUrl: string;
  file: File | null;
  /** The stored file, which belongs to the stored kind. */
  filePath: string | null;
  storedKind: LessonInput['kind'] | null;
}

export function lessonFromDraft(draft: LessonDraft): unknown {
  const minutesValue = draft.estimatedMinutes.trim() === '' ? NaN : Number(draft.estimatedMinutes);
  const common = { kind: draft.kind, title: draft.title, estimatedMinutes: minutesValue };
  switch (draft.kind) {
    case 'markdown':
      return { ...common, body: draft.body };
    case 'video':
      return { ...common, videoUrl: draft.videoUrl };
    default:
      // A stored file of the other kind (a PDF while ePub is chosen) is not this lesson's file.
      return {
        ...common,
        file: draft.file,
        filePath: draft.storedKind === draft.kind ? draft.filePath : null,
      };
  }
}

/** The first bytes of a real PDF (`%PDF-`) or ePub (a ZIP archive, `PK\x03\x04`). */
export function looksLike(kind: keyof typeof fileKinds, head: Uint8Array): boolean {
  const starts = (bytes: number[]) => bytes.every((b, i) => head[i] === b);
  return kind === 'pdf' ? starts([0x25, 0x50, 0x44, 0x46, 0x2d]) : starts([0x50, 0x4b, 0x03, 0x04]);
}

/** An object name for an upload: under the course (what storage policies check), unique. */
export function objectPath(courseId: string, fileName: string, unique: string): string {
  const safe =
    fileName
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/-+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/^[-.]+/, '')
      .slice(-100) || 'file';
  return `${courseId}/lessons/${unique}-${safe}`;
}
