/**
 * A course: its description, and once enrolled its modules with each lesson's status and the
 * module quizzes with the user's result. Not yet enrolled: an Enrol button, if the course is
 * open to the user.
 */
import { Link } from 'react-router';
import {
  CheckCircle2,
  Circle,
  CircleDot,
  ClipboardCheck,
  MessagesSquare,
  Pencil,
  Radio,
} from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import { useEnrolInCourse } from './api/enrol-in-course';
import { useCourse, type LessonKind, type LessonStatus, type OutlineQuiz } from './api/get-course';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { ProgressBar, formatDateTime } from './learn-ui';
import { learnPaths } from './learn-paths';

const statusText: Record<LessonStatus, string> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  completed: 'Completed',
};

const statusIcons = { not_started: Circle, in_progress: CircleDot, completed: CheckCircle2 };

const kindText: Record<LessonKind, string> = {
  markdown: 'Reading',
  video: 'Video',
  pdf: 'PDF',
  epub: 'ePub',
};

export function CoursePage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const course = useCourse(session.userId, courseId);
  const enrol = useEnrolInCourse();
  const back = { to: learnPaths.library(), label: 'Course library' };

  if (course.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Loading the course…" />
      </AppPage>
    );
  }
  if (course.isError) {
    return (
      <AppPage title="Course" back={back}>
        <LoadError
          message={`Could not load the course: ${course.error.message}`}
          onRetry={() => void course.refetch()}
        />
      </AppPage>
    );
  }
  if (!course.data) {
    return (
      <AppPage title="Course not found" back={back}>
        <EmptyState>
          This course does not exist, or it is not open to you. Find your courses in the course
          library.
        </EmptyState>
      </AppPage>
    );
  }

  const data = course.data;
  function enrolNow() {
    enrol.mutate(
      { userId: session.userId, courseId: data.id },
      {
        onSuccess: () => toast.success(`You are enrolled in ${data.title}.`),
        onError: (error) => toast.error(error.message),
      },
    );
  }

  return (
    <AppPage
      title={data.title}
      back={back}
      intro={data.subject}
      actions={
        data.enrolment || data.canEdit ? (
          <>
            {data.enrolment && (
              <Button asChild variant="outline" size="sm">
                <Link to={learnPaths.discussion(data.id)}>
                  <MessagesSquare aria-hidden="true" />
                  Discussion
                </Link>
              </Button>
            )}
            <Button asChild variant="outline" size="sm">
              <Link to={learnPaths.live(data.id)}>
                <Radio aria-hidden="true" />
                Live room
              </Link>
            </Button>
            {data.canEdit && (
              <Button asChild variant="outline" size="sm">
                <Link to={learnPaths.editCourse(data.id)}>
                  <Pencil aria-hidden="true" />
                  Edit course
                </Link>
              </Button>
            )}
          </>
        ) : undefined
      }
    >
      {data.description && <p className="leading-7">{data.description}</p>}
      {!data.enrolment ? (
        <EmptyState
          action={
            <Button onClick={enrolNow} disabled={enrol.isPending}>
              {enrol.isPending ? 'Enrolling…' : 'Enrol in this course'}
            </Button>
          }
        >
          Enrol to open the lessons, take the module quizzes and join the discussion.
        </EmptyState>
      ) : (
        <>
          <ProgressBar
            value={data.enrolment.progressPercent}
            label="Your progress in this course"
          />
          {data.modules.length === 0 && (
            <EmptyState>
              This course has no modules yet. Your instructor is still building it.
            </EmptyState>
          )}
          <ol className="grid gap-4">
            {data.modules.map((module, index) => (
              <li key={module.id}>
                <section
                  aria-labelledby={`module-${module.id}`}
                  className="rounded-xl border bg-card p-4 shadow-sm sm:p-5"
                >
                  <h2 id={`module-${module.id}`} className="text-lg font-semibold">
                    <span className="text-muted-foreground">Module {index + 1}: </span>
                    {module.title}
                  </h2>
                  {module.summary && (
                    <p className="mt-1 text-sm text-muted-foreground">{module.summary}</p>
                  )}
                  {module.lessons.length === 0 ? (
                    <p className="mt-3 text-sm text-muted-foreground">
                      No lessons in this module yet.
                    </p>
                  ) : (
                    <ol className="mt-3 divide-y">
                      {module.lessons.map((lesson) => {
                        const Icon = statusIcons[lesson.status];
                        return (
                          <li
                            key={lesson.id}
                            className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2"
                          >
                            <Icon
                              aria-hidden="true"
                              className={
                                lesson.status === 'completed'
                                  ? 'size-4 text-success'
                                  : 'size-4 text-muted-foreground'
                              }
                            />
                            <Link
                              to={learnPaths.lesson(data.id, lesson.id)}
                              className="min-w-0 flex-1 font-medium text-primary underline-offset-4 hover:underline"
                            >
                              {lesson.title}
                            </Link>
                            <span className="text-xs text-muted-foreground">
                              {kindText[lesson.kind]} · {lesson.estimatedMinutes} min ·{' '}
                              <span className={lesson.status === 'completed' ? 'text-success' : ''}>
                                {statusText[lesson.status]}
                              </span>
                            </span>
                          </li>
                        );
                      })}
                    </ol>
                  )}
                  {module.quizzes.map((quiz) => (
                    <QuizRow key={quiz.id} courseId={data.id} quiz={quiz} />
                  ))}
                </section>
              </li>
            ))}
          </ol>
        </>
      )}
    </AppPage>
  );
}

function QuizRow({ courseId, quiz }: { courseId: string; quiz: OutlineQuiz }) {
  const result =
    quiz.bestScore !== null
      ? `Score ${quiz.bestScore}%`
      : quiz.awaiting
        ? 'Awaiting your instructor'
        : quiz.attempts >= quiz.maxAttempts
          ? 'Submitted'
          : 'Not taken';
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 rounded-lg bg-muted p-3">
      <ClipboardCheck aria-hidden="true" className="size-4 text-primary" />
      <Link
        to={learnPaths.quiz(courseId, quiz.id)}
        className="min-w-0 flex-1 font-medium text-primary underline-offset-4 hover:underline"
      >
        {quiz.title}
      </Link>
      <Badge variant={quiz.bestScore !== null ? 'default' : 'outline'}>{result}</Badge>
      {quiz.dueAt && (
        <span className="text-xs text-muted-foreground">Due {formatDateTime(quiz.dueAt)}</span>
      )}
    </div>
  );
}
