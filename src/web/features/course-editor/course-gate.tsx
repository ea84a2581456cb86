/**
 * The frame of the editor's inner screens, and the gate before them: the course's outline
 * loaded and editable by this user, or the reason it is not (loading, an error to retry, not
 * theirs to edit).
 */
import type { ReactNode } from 'react';
import { AppPage, LoadError, LoadingBlock } from '@/components/app-page';
import type { useCourseOutline, CourseOutline } from './api/get-course-outline';
import { editorPaths } from './editor-paths';
import { NotEditable } from './editor-ui';

export function Frame({
  courseId,
  title,
  back,
  children,
}: {
  courseId: string;
  title: string;
  /** Where "back" leads; the course by default. */
  back?: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <AppPage
      title={title}
      back={back ?? { to: editorPaths.course(courseId), label: 'The course' }}
      wide
    >
      {children}
    </AppPage>
  );
}

/** The course's outline loaded and editable by this user, or the reason it is not. */
export function CourseGate({
  outline,
  courseId,
  children,
}: {
  outline: ReturnType<typeof useCourseOutline>;
  courseId: string;
  children: (course: CourseOutline) => ReactNode;
}) {
  if (outline.isPending) {
    return (
      <Frame courseId={courseId} title="Course editor">
        <LoadingBlock label="Loading the course…" />
      </Frame>
    );
  }
  if (outline.isError) {
    return (
      <Frame courseId={courseId} title="Course editor">
        <LoadError
          message={`Could not load the course: ${outline.error.message}`}
          onRetry={() => void outline.refetch()}
        />
      </Frame>
    );
  }
  if (!outline.data || !outline.data.canEdit) {
    return <NotEditable exists={!!outline.data} courseId={courseId} />;
  }
  return <>{children(outline.data)}</>;
}
