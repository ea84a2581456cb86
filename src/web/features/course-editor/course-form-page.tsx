/** A new course in the workspace: its details first, then modules and lessons in the editor. */
import { useNavigate } from 'react-router';
import { AppPage } from '@/components/app-page';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { CourseForm, emptyCourse } from './course-form';
import { editorPaths } from './editor-paths';
import { canAuthor } from './editor-ui';

export function NewCoursePage() {
  const session = useAppSession();
  const navigate = useNavigate();
  const where =
    session.workspace.kind === 'personal'
      ? 'A personal course: yours alone to write and publish.'
      : `A course of ${session.workspace.organizationName}; you will be its instructor.`;
  return (
    <AppPage
      title="New course"
      intro={where}
      back={{ to: editorPaths.courses(), label: 'Your courses' }}
    >
      {canAuthor(session.workspace) ? (
        <section className="rounded-xl border bg-card p-4 shadow-sm sm:p-5">
          <CourseForm
            initial={emptyCourse}
            onSaved={(id) => void navigate(editorPaths.course(id))}
          />
        </section>
      ) : (
        <Notice tone="info">
          Only instructors and admins create courses in this organization. Choose another workspace,
          or ask an organization admin to make you an instructor.
        </Notice>
      )}
    </AppPage>
  );
}
