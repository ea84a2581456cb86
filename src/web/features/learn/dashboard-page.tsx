/**
 * The learner's home: where they left off, their courses with progress, assignments due and
 * recent quiz results, all within the chosen workspace. Every empty part says what to do.
 */
import { Link } from 'react-router';
import { BookOpen, PlayCircle } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useAppSession, workspaceKey } from '@/lib/app-session';
import { useAssignmentsDue } from './api/get-assignments-due';
import { useContinueLesson } from './api/get-continue-lesson';
import { useEnrolments } from './api/get-enrolments';
import { useFlashcardsDue } from './api/get-flashcards-due';
import { useRecentResults } from './api/get-recent-results';
import { useStudySummary } from './api/get-study-summary';
import { usePreferences } from '@/lib/user-preferences';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { ProgressBar, formatDateTime } from './learn-ui';
import { learnPaths } from './learn-paths';

export function DashboardPage() {
  const session = useAppSession();
  const enrolments = useEnrolments(session);
  const workspace = session.workspace;
  const intro =
    workspace.kind === 'personal'
      ? 'Personal mode: public courses and the courses you enrol in yourself.'
      : workspace.boardName
        ? `Your courses at ${workspace.organizationName} distributed to ${workspace.boardName}.`
        : `Your courses at ${workspace.organizationName}.`;

  return (
    <AppPage title="Dashboard" intro={intro} wide>
      {enrolments.isPending ? (
        <LoadingBlock label="Loading your courses…" />
      ) : enrolments.isError ? (
        <LoadError
          message={`Could not load your courses: ${enrolments.error.message}`}
          onRetry={() => void enrolments.refetch()}
        />
      ) : (
        <DashboardSections courses={enrolments.data} />
      )}
    </AppPage>
  );
}

function DashboardSections({
  courses,
}: {
  courses: NonNullable<ReturnType<typeof useEnrolments>['data']>;
}) {
  const session = useAppSession();
  const key = workspaceKey(session.workspace);
  const ids = courses.map((c) => c.courseId);
  const titles = new Map(courses.map((c) => [c.courseId, c.title]));
  const continueLesson = useContinueLesson(session.userId, key, ids);
  const assignments = useAssignmentsDue(session.userId, key, ids);
  const results = useRecentResults(session.userId, key, ids);
  const cardsDue = useFlashcardsDue(session.userId);
  const firstUnfinished = courses.find((c) => c.progressPercent < 100);

  return (
    <>
      <Section title="Continue where you left off" id="continue">
        {continueLesson.isPending ? (
          <LoadingBlock label="Loading your last lesson…" />
        ) : continueLesson.isError ? (
          <LoadError
            message={`Could not load your last lesson: ${continueLesson.error.message}`}
            onRetry={() => void continueLesson.refetch()}
          />
        ) : continueLesson.data ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="font-medium">{continueLesson.data.title}</p>
              <p className="text-sm text-muted-foreground">
                {titles.get(continueLesson.data.courseId)} · last opened{' '}
                {formatDateTime(continueLesson.data.updatedAt)}
              </p>
            </div>
            <Button asChild>
              <Link
                to={learnPaths.lesson(continueLesson.data.courseId, continueLesson.data.lessonId)}
              >
                <PlayCircle aria-hidden="true" />
                Continue lesson
              </Link>
            </Button>
          </div>
        ) : firstUnfinished ? (
          <EmptyState
            action={
              <Button asChild size="sm">
                <Link to={learnPaths.course(firstUnfinished.courseId)}>
                  Open {firstUnfinished.title}
                </Link>
              </Button>
            }
          >
            No lesson in progress. Pick up a course and open its next lesson.
          </EmptyState>
        ) : (
          <EmptyState
            action={
              <Button asChild size="sm">
                <Link to={learnPaths.library()}>
                  <BookOpen aria-hidden="true" />
                  Browse courses
                </Link>
              </Button>
            }
          >
            {courses.length === 0
              ? 'You are not enrolled in any course yet. Find one in the course library and enrol.'
              : 'You have finished every course you are enrolled in. Find your next one in the library.'}
          </EmptyState>
        )}
      </Section>

      <Section title="Flashcards" id="flashcards-due">
        {cardsDue.isPending ? (
          <LoadingBlock label="Counting your due cards…" />
        ) : cardsDue.isError ? (
          <LoadError
            message={`Could not count your due cards: ${cardsDue.error.message}`}
            onRetry={() => void cardsDue.refetch()}
          />
        ) : (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p>
              {cardsDue.data === 0
                ? 'No flashcard is due.'
                : `${cardsDue.data} ${cardsDue.data === 1 ? 'card is' : 'cards are'} due for review.`}
            </p>
            <Button asChild size="sm" variant={cardsDue.data > 0 ? 'default' : 'outline'}>
              <Link to={cardsDue.data > 0 ? '/app/flashcards/review' : '/app/flashcards'}>
                {cardsDue.data > 0 ? 'Review now' : 'Your decks'}
              </Link>
            </Button>
          </div>
        )}
      </Section>
      <Section title="Your courses" id="courses">
        {courses.length === 0 ? (
          <EmptyState
            action={
              <Button asChild size="sm" variant="outline">
                <Link to={learnPaths.library()}>Go to the course library</Link>
              </Button>
            }
          >
            Courses you enrol in appear here with your progress.
          </EmptyState>
        ) : (
          <ul className="grid gap-3 md:grid-cols-2">
            {courses.map((course) => (
              <li key={course.courseId} className="rounded-lg border p-3">
                <Link
                  to={learnPaths.course(course.courseId)}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {course.title}
                </Link>
                {course.subject && (
                  <p className="text-sm text-muted-foreground">{course.subject}</p>
                )}
                <div className="mt-2">
                  <ProgressBar
                    value={course.progressPercent}
                    label={`Progress in ${course.title}`}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <StudySection userId={session.userId} />

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Assignments due" id="assignments">
          {assignments.isPending ? (
            <LoadingBlock label="Loading assignments…" />
          ) : assignments.isError ? (
            <LoadError
              message={`Could not load assignments: ${assignments.error.message}`}
              onRetry={() => void assignments.refetch()}
            />
          ) : assignments.data.length === 0 ? (
            <EmptyState>
              Nothing is due. When an instructor sets a lesson or quiz with a due date, it shows
              here.
            </EmptyState>
          ) : (
            <ul className="grid gap-2">
              {assignments.data.map((a) => (
                <li key={a.id} className="flex flex-wrap items-baseline justify-between gap-2">
                  <Link
                    className="font-medium text-primary underline-offset-4 hover:underline"
                    to={
                      a.lessonId
                        ? learnPaths.lesson(a.courseId, a.lessonId)
                        : learnPaths.quiz(a.courseId, a.assessmentId!)
                    }
                  >
                    {a.title}
                  </Link>
                  <span className="text-sm text-muted-foreground">
                    {titles.get(a.courseId)} · due {formatDateTime(a.dueAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>

        <Section title="Recent results" id="results">
          {results.isPending ? (
            <LoadingBlock label="Loading results…" />
          ) : results.isError ? (
            <LoadError
              message={`Could not load results: ${results.error.message}`}
              onRetry={() => void results.refetch()}
            />
          ) : results.data.length === 0 ? (
            <EmptyState>
              No quiz taken yet. Each module of a course ends with a quiz; your scores appear here.
            </EmptyState>
          ) : (
            <ul className="grid gap-2">
              {results.data.map((r) => (
                <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2">
                  <Link
                    className="font-medium text-primary underline-offset-4 hover:underline"
                    to={learnPaths.quiz(r.courseId, r.assessmentId)}
                  >
                    {r.title}
                  </Link>
                  <span className="text-sm text-muted-foreground">
                    {r.score !== null ? `${r.score}%` : 'Awaiting your instructor'} ·{' '}
                    {formatDateTime(r.submittedAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
      </div>
    </>
  );
}

/** Level, streak and goals; reminders as the learner chose them in Settings. */
function StudySection({ userId }: { userId: string }) {
  const summary = useStudySummary(userId);
  const preferences = usePreferences(userId).data?.preferences;
  if (summary.isPending) {
    return (
      <Section title="Goals and streak" id="study">
        <LoadingBlock label="Loading your goals…" />
      </Section>
    );
  }
  if (summary.isError) {
    return (
      <Section title="Goals and streak" id="study">
        <LoadError
          message={`Could not load your goals: ${summary.error.message}`}
          onRetry={() => void summary.refetch()}
        />
      </Section>
    );
  }
  const { level, xp, currentStreak, activeToday, today, goals } = summary.data;
  const soon = new Date(`${today}T00:00:00Z`);
  soon.setUTCDate(soon.getUTCDate() + 3);
  const dueSoon = goals.filter(
    (g) =>
      g.percent < 100 &&
      g.dueOn !== null &&
      g.dueOn >= today &&
      g.dueOn <= soon.toISOString().slice(0, 10),
  );
  return (
    <Section title="Goals and streak" id="study">
      <p className="text-sm">
        Level {level} · {xp.toLocaleString('en-GB')} XP · {currentStreak}-day streak
      </p>
      {preferences?.remindStreak && currentStreak > 0 && !activeToday && (
        <p className="mt-2 text-sm font-medium">
          Study today to keep your {currentStreak}-day streak.
        </p>
      )}
      {preferences?.remindGoals &&
        dueSoon.map((g) => (
          <p key={g.id} className="mt-2 text-sm font-medium">
            “{g.title}” is due {g.dueOn === today ? 'today' : `on ${g.dueOn}`} and is at {g.percent}
            %.
          </p>
        ))}
      {goals.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">No goals yet.</p>
      ) : (
        <ul className="mt-3 grid gap-3">
          {goals.slice(0, 4).map((g) => (
            <li key={g.id} className="grid gap-1">
              <span className="text-sm font-medium">
                {g.title}
                {g.courseTitle ? (
                  <span className="font-normal text-muted-foreground"> · {g.courseTitle}</span>
                ) : null}
              </span>
              <ProgressBar value={g.percent} label={g.title} />
            </li>
          ))}
        </ul>
      )}
      <Button asChild variant="link" className="mt-2 px-0">
        <Link to="/app/progress">Goals, badges and activity</Link>
      </Button>
    </Section>
  );
}
