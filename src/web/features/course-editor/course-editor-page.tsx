/**
 * One course in the editor: its details, and the module manager (modules and lessons in
 * order, added, edited, deleted and reordered by drag and drop or by keyboard).
 */
import { Link } from 'react-router';
import { Eye } from 'lucide-react';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useCourseOutline } from './api/get-course-outline';
import { CourseForm } from './course-form';
import { editorPaths } from './editor-paths';
import { NotEditable } from './editor-ui';
import { ModuleManager } from './module-manager';

export function CourseEditorPage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);

  if (outline.isPending) {
    return (
      <AppPage title="Course editor" back={{ to: editorPaths.courses(), label: 'Your courses' }}>
        <LoadingBlock label="Loading the course…" />
      </AppPage>
    );
  }
  if (outline.isError) {
    return (
      <AppPage title="Course editor" back={{ to: editorPaths.courses(), label: 'Your courses' }}>
        <LoadError
          message={`Could not load the course: ${outline.error.message}`}
          onRetry={() => void outline.refetch()}
        />
      </AppPage>
    );
  }
  const course = outline.data;
  if (!course || !course.canEdit) return <NotEditable exists={!!course} courseId={courseId} />;

  return (
    <AppPage
      title={course.title}
      intro={course.published ? 'Published' : 'Draft: students cannot find it yet.'}
      back={{ to: editorPaths.courses(), label: 'Your courses' }}
      actions={
        <Button variant="outline" asChild>
          <Link to={editorPaths.learnerCourse(course.id)}>
            <Eye aria-hidden="true" />
            View as a student
          </Link>
        </Button>
      }
      wide
    >
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Section title="Details" id="course-details">
          <CourseForm
            key={course.id}
            courseId={course.id}
            initial={{
              title: course.title,
              subject: course.subject,
              description: course.description,
              visibility: course.visibility,
              published: course.published,
            }}
            onSaved={() => undefined}
          />
        </Section>
        <Section title="Modules and lessons" id="course-modules">
          <ModuleManager course={course} />
        </Section>
      </div>
    </AppPage>
  );
}
