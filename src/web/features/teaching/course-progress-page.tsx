/**
 * A course's progress table: one row per enrolled learner, sorted, filtered and paged by the
 * database (course_progress), the view kept in the address. Export writes every filtered row
 * as CSV; each learner's row opens their goals in this course.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  CalendarClock,
  Download,
  Search,
  ChartNoAxesColumn,
} from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Pager } from '@/components/ui/pager';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useAppSession } from '@/lib/app-session';
import { downloadCsv } from '@/lib/csv';
import { useRouteParams } from '@/lib/use-route-params';
import { cn } from '@/lib/utils';
import { useCourseOutline, type CourseOutline } from './api/get-course-outline';
import {
  getAllCourseProgress,
  useCourseProgress,
  type LearnerProgress,
} from './api/get-course-progress';
import { GoalsDialog } from './goals-dialog';
import {
  PROGRESS_PAGE_SIZE,
  paramsFromView,
  progressStatuses,
  searchSchema,
  statusLabels,
  toggleSort,
  viewFromParams,
  type ProgressStatus,
  type ProgressView,
  type SortColumn,
} from './progress-query';
import { Field, Select } from './teaching-fields';
import {
  formatDateTime,
  formatDuration,
  formatScore,
  progressCsv,
  progressFileName,
} from './teaching-format';
import { teachingPaths } from './teaching-paths';

const back = { to: teachingPaths.courses(), label: 'Back to your courses' };

export function CourseProgressPage() {
  const session = useAppSession();
  const { courseId = '' } = useRouteParams();
  const outline = useCourseOutline(session.userId, courseId);

  if (outline.isPending) {
    return (
      <AppPage title="" back={back}>
        <LoadingBlock label="Loading the course…" />
      </AppPage>
    );
  }
  if (outline.isError) {
    return (
      <AppPage title="Learner progress" back={back}>
        <LoadError
          message={`Could not load the course: ${outline.error.message}`}
          onRetry={() => void outline.refetch()}
        />
      </AppPage>
    );
  }
  if (!outline.data) {
    return (
      <AppPage title="Course not found" back={back}>
        <EmptyState>
          This course does not exist or you do not teach it. Choose one of your courses under
          Teaching.
        </EmptyState>
      </AppPage>
    );
  }
  return <ProgressScreen outline={outline.data} />;
}

function ProgressScreen({ outline }: { outline: CourseOutline }) {
  const session = useAppSession();
  const [params, setParams] = useSearchParams();
  const view = viewFromParams(params);
  const progress = useCourseProgress(session.userId, outline.id, view);
  const [exporting, setExporting] = useState(false);
  const [goalsFor, setGoalsFor] = useState<LearnerProgress | null>(null);

  const show = (next: ProgressView) => setParams(paramsFromView(next));

  async function exportCsv() {
    setExporting(true);
    try {
      const rows = await getAllCourseProgress(outline.id, view);
      downloadCsv(progressFileName(outline.title, new Date()), progressCsv(rows));
      toast.success(
        `Exported ${rows.length === 1 ? '1 learner' : `${rows.length} learners`} as CSV.`,
      );
    } catch (error) {
      toast.error(`Could not export: ${(error as Error).message}`);
    } finally {
      setExporting(false);
    }
  }

  const total = progress.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PROGRESS_PAGE_SIZE));
  const filtered = view.search !== '' || view.status !== null;

  return (
    <AppPage
      title={outline.title}
      intro="Learner progress: every learner enrolled in this course."
      back={back}
      wide
      actions={
        <>
          <Button variant="outline" asChild>
            <Link to={teachingPaths.assignments(outline.id)}>
              <CalendarClock aria-hidden="true" />
              Assignments
            </Link>
          </Button>
          <Button variant="outline" asChild>
            <Link to={teachingPaths.insights(outline.id)}>
              <ChartNoAxesColumn aria-hidden="true" />
              Struggle insights
            </Link>
          </Button>
          <Button onClick={() => void exportCsv()} disabled={exporting || total === 0}>
            <Download aria-hidden="true" />
            {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
        </>
      }
    >
      <FilterForm key={`${view.search}|${view.status ?? ''}`} view={view} onApply={show} />
      <p className="text-sm text-muted-foreground">
        <span className="font-medium text-foreground">Struggling</span> means started but not
        finished, with an average quiz score under 60% or nothing done for 14 days.
      </p>

      {progress.isPending ? (
        <LoadingBlock label="Loading learners…" />
      ) : progress.isError ? (
        <LoadError
          message={`Could not load the learners: ${progress.error.message}`}
          onRetry={() => void progress.refetch()}
        />
      ) : progress.data.rows.length === 0 ? (
        <EmptyState
          action={
            filtered || view.page > 0 ? (
              <Button size="sm" variant="outline" onClick={() => setParams({})}>
                Show every learner
              </Button>
            ) : (
              <Button size="sm" variant="outline" asChild>
                <Link to={teachingPaths.assignments(outline.id)}>Set an assignment</Link>
              </Button>
            )
          }
        >
          {filtered || view.page > 0
            ? 'No learner matches these filters. Try another search or status.'
            : 'No learner is enrolled in this course yet. Learners enrol from the course library, or an organization admin enrols them; their progress appears here.'}
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {progress.isPlaceholderData
              ? 'Loading…'
              : `${total === 1 ? '1 learner' : `${total} learners`}${filtered ? ' match' : ''} · page ${progress.data.page + 1} of ${pages}`}
          </p>
          <ProgressTable
            busy={progress.isPlaceholderData}
            rows={progress.data.rows}
            view={view}
            onSort={(column) => show(toggleSort(view, column))}
            onGoals={setGoalsFor}
          />
          <Pager
            label="Learner pages"
            page={view.page}
            pages={pages}
            onPage={(page) => show({ ...view, page })}
          />
        </>
      )}
      {goalsFor && (
        <GoalsDialog
          outline={outline}
          learner={{ id: goalsFor.userId, name: goalsFor.name }}
          onClose={() => setGoalsFor(null)}
        />
      )}
    </AppPage>
  );
}

function FilterForm({
  view,
  onApply,
}: {
  view: ProgressView;
  onApply: (view: ProgressView) => void;
}) {
  const [search, setSearch] = useState(view.search);
  const [status, setStatus] = useState<string>(view.status ?? '');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = searchSchema.safeParse({ search });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onApply({
      ...view,
      search: parsed.data.search,
      status: (status || null) as ProgressStatus | null,
      page: 0,
    });
  }

  return (
    <form
      role="search"
      aria-label="Filter learners"
      onSubmit={submit}
      noValidate
      className="flex flex-wrap items-start gap-3"
    >
      <Field label="Search by name or email" error={error} className="min-w-56 flex-1">
        {(control) => (
          <Input
            {...control}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        )}
      </Field>
      <Field label="Status" className="w-44">
        {(control) => (
          <Select {...control} value={status} onChange={(event) => setStatus(event.target.value)}>
            <option value="">Every status</option>
            {progressStatuses.map((value) => (
              <option key={value} value={value}>
                {statusLabels[value]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Button type="submit" variant="outline" className="mt-[1.375rem]">
        <Search aria-hidden="true" />
        Apply
      </Button>
    </form>
  );
}

const columns: { key: SortColumn; label: string; numeric?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email' },
  { key: 'status', label: 'Status' },
  { key: 'lessons_completed', label: 'Lessons', numeric: true },
  { key: 'percent', label: 'Percent', numeric: true },
  { key: 'time_spent', label: 'Time spent', numeric: true },
  { key: 'last_activity', label: 'Last activity' },
  { key: 'average_score', label: 'Average score', numeric: true },
  { key: 'awaiting_grading', label: 'To grade', numeric: true },
];

const statusTone: Record<ProgressStatus, string> = {
  not_started: 'border-border text-muted-foreground',
  in_progress: 'border-primary/40 text-primary',
  struggling: 'border-destructive/50 text-destructive',
  completed: 'border-emerald-700/40 text-emerald-800 dark:text-emerald-300',
};

function ProgressTable({
  busy,
  rows,
  view,
  onSort,
  onGoals,
}: {
  busy: boolean;
  rows: LearnerProgress[];
  view: ProgressView;
  onSort: (column: SortColumn) => void;
  onGoals: (learner: LearnerProgress) => void;
}) {
  return (
    <div
      aria-busy={busy || undefined}
      className={cn('min-w-0 rounded-xl border bg-card shadow-sm', busy && 'opacity-60')}
    >
      <Table regionLabel="Learner progress table">
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {columns.map((column) => {
              const active = view.sort === column.key;
              const Icon = !active ? ArrowUpDown : view.descending ? ArrowDown : ArrowUp;
              return (
                <TableHead
                  key={column.key}
                  aria-sort={active ? (view.descending ? 'descending' : 'ascending') : 'none'}
                  className={cn(column.numeric && 'text-right')}
                >
                  <button
                    type="button"
                    onClick={() => onSort(column.key)}
                    className="inline-flex items-center gap-1 rounded-sm font-semibold outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
                  >
                    {column.label}
                    <Icon
                      aria-hidden="true"
                      className={cn('size-3.5', !active && 'text-muted-foreground')}
                    />
                    <span className="sr-only">
                      {active
                        ? view.descending
                          ? ', sorted descending'
                          : ', sorted ascending'
                        : ', sort'}
                    </span>
                  </button>
                </TableHead>
              );
            })}
            <TableHead>
              <span className="sr-only">Goals</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.userId}>
              <TableCell className="font-medium whitespace-nowrap">{row.name}</TableCell>
              <TableCell className="whitespace-nowrap">{row.email}</TableCell>
              <TableCell>
                <Badge variant="outline" className={statusTone[row.status]}>
                  {statusLabels[row.status]}
                </Badge>
              </TableCell>
              <TableCell className="text-right whitespace-nowrap tabular-nums">
                {row.lessonsCompleted} of {row.lessonsTotal}
              </TableCell>
              <TableCell className="text-right tabular-nums">{row.percent}%</TableCell>
              <TableCell className="text-right whitespace-nowrap tabular-nums">
                {formatDuration(row.timeSpentSeconds)}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {formatDateTime(row.lastActivity)}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {formatScore(row.averageScore)}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {row.awaitingGrading > 0 ? (
                  <Link
                    to={teachingPaths.grading()}
                    className="rounded-sm font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {row.awaitingGrading}
                    <span className="sr-only"> to grade: open the grading queue</span>
                  </Link>
                ) : (
                  0
                )}
              </TableCell>
              <TableCell>
                <Button size="sm" variant="outline" onClick={() => onGoals(row)}>
                  Goals<span className="sr-only"> for {row.name}</span>
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
