/**
 * The courses the user teaches in this workspace, each with its learners and the attempts
 * waiting for a grade, and the ways into its progress table and assignments.
 */
import { Link } from 'react-router';
import { CalendarClock, ClipboardCheck, Users } from 'lucide-react';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { useAppSession } from '@/lib/app-session';
import { useTeachingCourses, type TeachingCourse } from './api/get-teaching-courses';
import { teachingPaths } from './teaching-paths';

export function TeachingPage() {
  const session = useAppSession();
  const courses = useTeachingCourses(session);
  const where =
    session.workspace.kind === 'organization'
      ? session.workspace.organizationName
      : 'Personal mode';

  return (
    <AppPage
      title="Teaching"
      intro={`The courses you teach in ${where}: learners' progress, assignments and grading.`}
      wide
    >
      {courses.isPending ? (
        <LoadingBlock label="Loading your courses…" />
      ) : courses.isError ? (
        <LoadError
          message={`Could not load your courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : courses.data.length === 0 ? (
        <EmptyState>
          You teach no course in {where} yet. An organization admin adds you as a course's
          instructor; a course you create in the course editor is yours at once.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {courses.data.map((course) => (
            <CourseCard key={course.id} course={course} />
          ))}
        </ul>
      )}
    </AppPage>
  );
}

function CourseCard({ course }: { course: TeachingCourse }) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <div>
        <h2 className="text-lg font-semibold">
          <Link
            to={teachingPaths.progress(course.id)}
            className="rounded-sm underline-offset-4 hover:underline"
          >
            {course.title}
          </Link>
        </h2>
        <p className="text-sm text-muted-foreground">
          {course.subject || 'No subject'}
          {!course.published && (
            <Badge variant="outline" className="ml-2">
              Draft
            </Badge>
          )}
        </p>
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <span className="inline-flex items-center gap-1.5">
          <Users aria-hidden="true" className="size-4" />
          {course.learners === 1 ? '1 learner' : `${course.learners} learners`}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <ClipboardCheck aria-hidden="true" className="size-4" />
          {course.awaitingGrading === 0 ? 'nothing to grade' : `${course.awaitingGrading} to grade`}
        </span>
      </p>
      <div className="mt-auto flex flex-wrap gap-2 text-sm font-medium">
        <Link
          to={teachingPaths.progress(course.id)}
          className="rounded-sm text-primary underline-offset-4 hover:underline"
        >
          Learner progress<span className="sr-only"> in {course.title}</span>
        </Link>
        <span aria-hidden="true">·</span>
        <Link
          to={teachingPaths.assignments(course.id)}
          className="inline-flex items-center gap-1 rounded-sm text-primary underline-offset-4 hover:underline"
        >
          <CalendarClock aria-hidden="true" className="size-4" />
          Assignments<span className="sr-only"> in {course.title}</span>
        </Link>
        <span aria-hidden="true">·</span>
        <Link
          to={teachingPaths.insights(course.id)}
          className="rounded-sm text-primary underline-offset-4 hover:underline"
        >
          Struggle insights<span className="sr-only"> in {course.title}</span>
        </Link>
      </div>
    </li>
  );
}
