/**
 * What LE Adapt's exports and webhooks look like on the wire (issue 14, decisions 0510–0516):
 * the server's `src/server/adapt/outputs.ts` answers with these shapes and the LE Adapt screens
 * read them, so both name the formats and events from one list.
 */
export type ExportFormat =
  'markdown' | 'html' | 'html-translation' | 'mp3' | 'scorm-1.2' | 'scorm-2004' | 'scorm-json';

export type ListedExport =
  | { name: string; format: ExportFormat; bytes: number; url: string; error: null }
  | { name: string; format: ExportFormat; bytes: null; url: null; error: string };

export interface ExportListing {
  status: 'none' | 'queued' | 'running' | 'done' | 'failed';
  error: string | null;
  audioSeconds: number | null;
  /** The voice that narrated the MP3 ("Flite slt", or "meSpeak en/en-us" as the fallback). */
  narrationVoice: string | null;
  finishedAt: string | null;
  files: ListedExport[];
}

export const WEBHOOK_EVENTS = ['lesson.exported', 'lesson.approved', 'lesson.published'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * The JSON bodies a learning system receives (docs/reference/adapt-webhooks.md documents them
 * with the headers); the server builds each payload as one of these types.
 */
export interface WebhookLessonSummary {
  job: { id: string; title: string };
  lesson: {
    title: string;
    /** BCP 47. */
    language: string;
    profile: 'none' | 'adhd' | 'dyslexia' | 'ell';
    /** Flesch–Kincaid grade of the final lesson. */
    readingGrade: number;
    estimatedMinutes: number;
  };
}

export interface LessonApprovedPayload extends WebhookLessonSummary {
  event: 'lesson.approved';
  /** When the Reviewer approved (ISO 8601) and their note, if any. */
  approval: { at: string; note: string | null };
}

export interface LessonExportedPayload extends WebhookLessonSummary {
  event: 'lesson.exported';
  /** Signed links valid until `linksExpireAt`; null for a format that could not be made. */
  package: { scorm12: string | null; scorm2004: string | null; scormJson: string | null };
  /** Every stored export by format (`markdown`, `html`, `mp3`, `scorm-1.2`, …). */
  files: Partial<Record<ExportFormat, string>>;
  linksExpireAt: string;
}

export interface LessonPublishedPayload {
  event: 'lesson.published';
  job: { id: string; title: string };
  course: { id: string };
  lesson: { id: string; title: string };
  /** How many bank questions the quiz became. */
  questions: number;
}
