/** Words and badges the LE Adapt screens share. */
import type { LearnerProfile } from '@common/adapt-lesson';
import { Badge } from '@/components/ui/badge';
import type { Workspace } from '@/lib/app-session';
import type { JobStatus, SourceFormat } from './api/adapt-jobs';

export const formatLabels: Record<SourceFormat, string> = {
  pdf: 'PDF',
  docx: 'Word document',
  txt: 'Text',
  scorm: 'SCORM package',
  prompt: 'Course prompt',
};

export const profileHints: Record<LearnerProfile, string> = {
  none: 'Simplified to the reading level only.',
  adhd: 'Short chunks, one idea per screen, checklists and time estimates.',
  dyslexia: 'Short sentences; friendly typography, spacing and read-aloud in the HTML export.',
  ell: 'Plain vocabulary, a glossary with simple definitions, and a translation if chosen.',
};

/** The translation targets the stage knows (Apertium pairs, or the model). */
export const languageOptions: Array<[string, string]> = [
  ['en', 'No translation'],
  ['es', 'Spanish'],
  ['ca', 'Catalan'],
  ['fr', 'French'],
  ['pt', 'Portuguese'],
  ['it', 'Italian'],
  ['eo', 'Esperanto'],
];

export function readingLevelLabel(grade: number): string {
  if (grade <= 5) return `Grade ${grade} (very easy)`;
  if (grade <= 8) return `Grade ${grade} (plain language)`;
  if (grade <= 11) return `Grade ${grade} (secondary school)`;
  return `Grade ${grade} (academic)`;
}

const statusLabels: Record<JobStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function StatusBadge({ status }: { status: JobStatus }) {
  return (
    <Badge
      variant={status === 'failed' ? 'destructive' : status === 'done' ? 'default' : 'outline'}
    >
      {statusLabels[status]}
    </Badge>
  );
}

/** A file's size as people read it: bytes, KB or MB (1024-based). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatWhen(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export type AdminWorkspace = Extract<Workspace, { kind: 'organization' }>;

/**
 * The workspace when its user is an Admin of the organization (its owner or an
 * organization-wide org_admin, not a board admin; decision 0500), else null. Only a hint for
 * what to show: row-level security decides.
 */
export function adminWorkspace(workspace: Workspace): AdminWorkspace | null {
  return workspace.kind === 'organization' &&
    (workspace.isOwner || (workspace.roles.includes('org_admin') && !workspace.boardAdminOnly))
    ? workspace
    : null;
}
