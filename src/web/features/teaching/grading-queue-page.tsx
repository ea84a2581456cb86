/**
 * Attempts with short answers waiting for a grade in the courses the user teaches in this
 * workspace, oldest first, paged on the server; or (`?view=evaluated`) attempts whose short
 * answers the answer evaluator graded and no instructor has reviewed yet, newest first, to
 * confirm or override (decision 0223).
 */
import { Link, useSearchParams } from 'react-router';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { useAppSession } from '@/lib/app-session';
import { cn } from '@/lib/utils';
import { QUEUE_PAGE_SIZE, useGradingQueue, type QueueKind } from './api/grading';
import { organizationOf } from './api/teaching-keys';
import { formatDateTime } from './teaching-format';
import { teachingPaths } from './teaching-paths';

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page - 1 : 0;
}

const views: { kind: QueueKind; label: string; href: string }[] = [
  { kind: 'awaiting', label: 'Awaiting your verdict', href: teachingPaths.grading() },
  {
    kind: 'evaluated',
    label: 'Graded automatically',
    href: `${teachingPaths.grading()}?view=evaluated`,
  },
];

export function GradingQueuePage() {
  const session = useAppSession();
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params);
  const kind: QueueKind = params.get('view') === 'evaluated' ? 'evaluated' : 'awaiting';
  const queue = useGradingQueue(session.userId, organizationOf(session.workspace), page, kind);
  const total = queue.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / QUEUE_PAGE_SIZE));
  const evaluated = kind === 'evaluated';

  return (
    <AppPage
      title="Grading"
      intro={
        evaluated
          ? 'Short answers the answer evaluator graded in the courses you teach, newest first. Open one to confirm its verdicts or override them.'
          : 'Short answers waiting for your verdict in the courses you teach, oldest first.'
      }
      wide
    >
      <nav aria-label="Grading lists" className="flex flex-wrap gap-2">
        {views.map((view) => (
          <Link
            key={view.kind}
            to={view.href}
            aria-current={view.kind === kind ? 'page' : undefined}
            className={cn(
              'rounded-md border px-3 py-1.5 text-sm font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
              view.kind === kind ? 'border-primary bg-accent' : 'hover:bg-accent',
            )}
          >
            {view.label}
          </Link>
        ))}
      </nav>
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
          {evaluated
            ? 'Nothing to review. Attempts whose short answers the evaluator graded appear here until you open and confirm them.'
            : 'Nothing to grade. Attempts with short answers the evaluator could not grade appear here.'}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {evaluated
              ? total === 1
                ? '1 attempt to review'
                : `${total} attempts to review`
              : total === 1
                ? '1 attempt awaits grading'
                : `${total} attempts await grading`}{' '}
            · page {page + 1} of {pages}
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
                    · {attempt.pending === 1 ? '1 answer' : `${attempt.pending} answers`}{' '}
                    {evaluated ? 'graded automatically' : 'to grade'}
                  </p>
                </div>
                <Button asChild>
                  <Link to={teachingPaths.attempt(attempt.attemptId)}>
                    {evaluated ? 'Review' : 'Grade'}
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
            onPage={(next) =>
              setParams({
                ...(evaluated ? { view: 'evaluated' } : {}),
                ...(next > 0 ? { page: String(next + 1) } : {}),
              })
            }
          />
        </>
      )}
    </AppPage>
  );
}
