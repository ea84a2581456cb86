/**
 * Attempts with short answers waiting for a grade in the courses the user teaches in this
 * workspace, oldest first, paged on the server.
 */
import { Link, useSearchParams } from 'react-router';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { useAppSession } from '@/lib/app-session';
import { QUEUE_PAGE_SIZE, useGradingQueue } from './api/grading';
import { organizationOf } from './api/teaching-keys';
import { formatDateTime } from './teaching-format';
import { teachingPaths } from './teaching-paths';

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page - 1 : 0;
}

export function GradingQueuePage() {
  const session = useAppSession();
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params);
  const queue = useGradingQueue(session.userId, organizationOf(session.workspace), page);
  const total = queue.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / QUEUE_PAGE_SIZE));

  return (
    <AppPage
      title="Grading"
      intro="Short answers waiting for your verdict in the courses you teach, oldest first."
      wide
    >
      {queue.isPending ? (
        <LoadingBlock label="Loading the grading queue…" />
      ) : queue.isError ? (
        <LoadError
          message={`Could not load the grading queue: ${queue.error.message}`}
          onRetry={() => void queue.refetch()}
        />
      ) : queue.data.attempts.length === 0 ? (
        <EmptyState
          action={
            page > 0 ? (
              <Link
                to={teachingPaths.grading()}
                className="text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Back to the first page
              </Link>
            ) : (
              <Link
                to={teachingPaths.courses()}
                className="text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                See your learners’ progress
              </Link>
            )
          }
        >
          Nothing to grade. Attempts with short answers appear here as soon as a learner submits
          them.
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {total === 1 ? '1 attempt awaits grading' : `${total} attempts await grading`} · page{' '}
            {page + 1} of {pages}
          </p>
          <ol className="grid gap-3">
            {queue.data.attempts.map((attempt) => (
              <li
                key={attempt.attemptId}
                className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-4 shadow-sm"
              >
                <div className="min-w-0">
                  <p className="font-medium">
                    {attempt.learnerName}{' '}
                    <span className="font-normal break-all text-muted-foreground">
                      ({attempt.learnerEmail})
                    </span>
                  </p>
                  <p className="text-sm">
                    {attempt.assessmentTitle} · {attempt.courseTitle}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Attempt {attempt.attemptNumber}, submitted {formatDateTime(attempt.submittedAt)}{' '}
                    · {attempt.pending === 1 ? '1 answer' : `${attempt.pending} answers`} to grade
                  </p>
                </div>
                <Button asChild>
                  <Link to={teachingPaths.attempt(attempt.attemptId)}>
                    Grade
                    <span className="sr-only">
                      {' '}
                      {attempt.learnerName}’s {attempt.assessmentTitle}
                    </span>
                  </Link>
                </Button>
              </li>
            ))}
          </ol>
          <Pager
            label="Grading queue pages"
            page={page}
            pages={pages}
            onPage={(next) => setParams(next > 0 ? { page: String(next + 1) } : {})}
          />
        </>
      )}
    </AppPage>
  );
}
