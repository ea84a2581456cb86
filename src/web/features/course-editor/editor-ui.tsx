/** Small pieces the editor's screens share: labels, who may author, the "not yours" notice. */
import { Link } from 'react-router';
import { FileText, BookOpenText, PlayCircle, FileType2, type LucideIcon } from 'lucide-react';
import { AppPage } from '@/components/app-page';
import { Notice } from '@/components/ui/notice';
import type { Workspace } from '@/lib/app-session';
import type { LessonKind } from './api/get-course-outline';
import type { Visibility } from './api/get-taught-courses';
import { editorPaths } from './editor-paths';

export const visibilityLabels: Record<Visibility, string> = {
  private: 'Private',
  organization: 'Organization',
  public: 'Public',
};

export const kindLabels: Record<LessonKind, string> = {
  markdown: 'Text (Markdown)',
  pdf: 'PDF file',
  epub: 'ePub book',
  video: 'Video',
};

export const kindIcons: Record<LessonKind, LucideIcon> = {
  markdown: FileText,
  pdf: FileType2,
  epub: BookOpenText,
  video: PlayCircle,
};

/**
 * Who may create courses here (the database decides; this only hides a button that would be
 * refused): instructors and admins of the organization, anyone in Personal mode.
 */
export function canAuthor(workspace: Workspace): boolean {
  return (
    workspace.kind === 'personal' ||
    workspace.roles.includes('instructor') ||
    workspace.roles.includes('org_admin')
  );
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

export function formatUpdated(iso: string): string {
  return dateFormat.format(new Date(iso));
}

/** A course the user cannot edit or that does not exist: say so and offer the way back. */
export function NotEditable({ exists, courseId }: { exists: boolean; courseId: string }) {
  return (
    <AppPage title="Course editor" back={{ to: editorPaths.courses(), label: 'Your courses' }}>
      <Notice tone="info">
        {exists ? (
          <>
            Only the course’s instructors and its organization’s admins can edit it.{' '}
            <Link className="font-medium underline" to={editorPaths.learnerCourse(courseId)}>
              Open the course as a student
            </Link>
            .
          </>
        ) : (
          'This course does not exist, or it is not shared with you.'
        )}
      </Notice>
    </AppPage>
  );
}

/** A screen of a module or lesson that is not (or no longer) there. */
export function Missing({ what, courseId }: { what: string; courseId: string }) {
  return (
    <AppPage title="Course editor" back={{ to: editorPaths.course(courseId), label: 'The course' }}>
      <Notice tone="info">
        This {what} does not exist or was deleted. Go back to the course to choose another.
      </Notice>
    </AppPage>
  );
}
