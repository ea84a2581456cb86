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
  finishedAt: string | null;
  files: ListedExport[];
}

export const WEBHOOK_EVENTS = ['lesson.exported', 'lesson.approved', 'lesson.published'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
