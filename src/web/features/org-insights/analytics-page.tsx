/**
 * The organization admin's analytics: enrolments, completions, learners active in the last 7
 * days and average scores for the organization, per course (searchable, paged on the server)
 * and, for the owner, per board. Every chart has its figures in a table beside it.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FileText, Search } from 'lucide-react';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Notice } from '@/components/ui/notice';
import { Pager } from '@/components/ui/pager';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { useAppSession } from '@/lib/app-session';
import { useBoardInsights } from './api/get-board-insights';
import { COURSE_PAGE_SIZE, useCourseInsights } from './api/get-course-insights';
import { useOrganizationInsights, type OrganizationTotals } from './api/get-organization-insights';
import { completionRate, formatCount, formatDay, formatPercent } from './format';
import { FigureBarChart } from './insights-chart';
import { insightsPaths } from './insights-paths';
import { AdminOnly, FigureTile, type AdminContext } from './insights-ui';

/** The board the figures are for: the workspace's, for the owner (decisions 0135, 0141). */
interface Scope {
  boardId: string | null;
  boardName: string | null;
}

export function AnalyticsPage() {
  return <AdminOnly title="Analytics">{(admin) => <Analytics admin={admin} />}</AdminOnly>;
}

function Analytics({ admin }: { admin: AdminContext }) {
  const { workspace } = useAppSession();
  const chosenBoard = workspace.kind === 'organization' ? workspace.boardId : null;
  const scope: Scope =
    chosenBoard && admin.access.owner && workspace.kind === 'organization'
      ? { boardId: chosenBoard, boardName: workspace.boardName }
      : { boardId: null, boardName: null };
  const totals = useOrganizationInsights(admin.userId, admin.organizationId, scope.boardId);
  return (
    <AppPage
      title="Analytics"
      wide
      intro={
        <>
          {scope.boardName
            ? `${scope.boardName} (${admin.organizationName}): the figures of the board’s learners in the courses distributed to it, kept up to date as they work.`
            : `${admin.organizationName}: figures kept up to date as learners work.`}
          {totals.data && (
            <>
              {' '}
              “Active” means a lesson opened or a quiz submitted between{' '}
              {formatDay(totals.data.windowStart)} and {formatDay(totals.data.windowEnd)} (UTC).
            </>
          )}
        </>
      }
      actions={
        <Button asChild variant="outline">
          <Link to={insightsPaths.reports}>
            <FileText aria-hidden="true" />
            Reports
          </Link>
        </Button>
      }
    >
      {totals.isPending ? (
        <LoadingBlock label="Loading the organization's figures…" />
      ) : totals.isError ? (
        <LoadError
          message={`Could not load the figures: ${totals.error.message}`}
          onRetry={() => void totals.refetch()}
        />
      ) : (
        <>
          {chosenBoard && !scope.boardId && (
            <Notice tone="info">
              Figures per board are the owner’s; these are the whole organization’s.
            </Notice>
          )}
          <TotalsSection
            totals={totals.data}
            population={scope.boardName ? 'on the board' : 'in the organization'}
          />
          <CoursesSection admin={admin} scope={scope} hasCourses={totals.data.courses > 0} />
          {admin.access.owner && !scope.boardId && <BoardsSection admin={admin} />}
        </>
      )}
    </AppPage>
  );
}

function TotalsSection({ totals, population }: { totals: OrganizationTotals; population: string }) {
  const rate = completionRate(totals.completions, totals.enrollments);
  return (
    <section aria-labelledby="totals-heading" className="grid gap-3">
      <h2 id="totals-heading" className="sr-only">
        Organization totals
      </h2>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <FigureTile
          label="Enrolments"
          value={formatCount(totals.enrollments)}
          detail={`in ${formatCount(totals.courses)} ${totals.courses === 1 ? 'course' : 'courses'}`}
        />
        <FigureTile
          label="Learners active in the last 7 days"
          value={formatCount(totals.activeLearners7d)}
          detail={`of ${formatCount(totals.learners)} ${totals.learners === 1 ? 'learner' : 'learners'} ${population}`}
        />
        <FigureTile
          label="Completions"
          value={formatCount(totals.completions)}
          detail={rate === null ? 'no enrolments yet' : `${formatPercent(rate)} of enrolments`}
        />
        <FigureTile
          label="Average score"
          value={formatPercent(totals.averageScore)}
          detail={
            totals.gradedAttempts === 0
              ? 'no graded quiz attempts yet'
              : `over ${formatCount(totals.gradedAttempts)} graded quiz ${totals.gradedAttempts === 1 ? 'attempt' : 'attempts'}`
          }
        />
      </dl>
      {totals.courses > 0 && totals.enrollments === 0 && (
        <EmptyState>
          Nobody is enrolled yet. Enrol learners one by one, by board or from a CSV file on the
          enrolment screens, or let learners enrol themselves from the course library; the figures
          here follow at once.
        </EmptyState>
      )}
    </section>
  );
}

function CoursesSection({
  admin,
  scope,
  hasCourses,
}: {
  admin: AdminContext;
  scope: Scope;
  hasCourses: boolean;
}) {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const courses = useCourseInsights(
    admin.userId,
    admin.organizationId,
    scope.boardId,
    search,
    page,
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setSearch(draft.trim());
    setPage(0);
  }

  if (!hasCourses) {
    return (
      <Section title="Courses" id="courses-heading">
        <EmptyState>
          {admin.organizationName} has no courses yet. Instructors and admins create courses in the
          course editor; each one appears here with its figures once it exists.
        </EmptyState>
      </Section>
    );
  }
  const list = courses.data?.courses ?? [];
  const pages = Math.ceil((courses.data?.total ?? 0) / COURSE_PAGE_SIZE);
  return (
    <Section title="Courses" id="courses-heading">
      <form role="search" onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-2">
        <div className="grid min-w-0 flex-1 gap-2">
          <label htmlFor="course-search" className="text-sm font-medium">
            Search courses by title or subject
          </label>
          <Input
            id="course-search"
            type="search"
            value={draft}
            maxLength={200}
            onChange={(event) => setDraft(event.target.value)}
          />
        </div>
        <Button type="submit" variant="outline">
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      {courses.isPending ? (
        <LoadingBlock label="Loading courses…" />
      ) : courses.isError ? (
        <LoadError
          message={`Could not load the courses: ${courses.error.message}`}
          onRetry={() => void courses.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          action={
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setDraft('');
                setSearch('');
                setPage(0);
              }}
            >
              Clear the search
            </Button>
          }
        >
          No course matches “{search}”. Try another title or subject.
        </EmptyState>
      ) : (
        <div className="grid gap-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <FigureBarChart
              title="Completion per course"
              unit="%"
              max={100}
              color="var(--chart-3)"
              describedBy="course-figures"
              items={list.map((c) => ({ name: c.title, value: c.completionRate }))}
            />
            <FigureBarChart
              title="Average score per course"
              unit="%"
              max={100}
              color="var(--chart-2)"
              describedBy="course-figures"
              items={list.map((c) => ({ name: c.title, value: c.averageScore }))}
            />
          </div>
          <Table id="course-figures" regionLabel="Figures per course">
            <TableCaption>
              Figures per course, most enrolments first
              {search ? `, matching “${search}”` : ''}
              {scope.boardName
                ? `: the courses distributed to ${scope.boardName}, for the board’s learners.`
                : '.'}
            </TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Course</TableHead>
                <TableHead scope="col" className="text-right">
                  Enrolments
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Active (7 days)
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Completed
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Average score
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((course) => (
                <TableRow key={course.courseId}>
                  <TableHead scope="row" className="font-medium whitespace-normal">
                    {course.title}
                    {!course.published && (
                      <span className="ml-2 text-xs font-normal text-muted-foreground">
                        (not published)
                      </span>
                    )}
                  </TableHead>
                  <TableCell className="text-right tabular-nums">
                    {formatCount(course.enrollments)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {course.activeLearners7d === null ? '—' : formatCount(course.activeLearners7d)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatCount(course.completions)} ({formatPercent(course.completionRate)})
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatPercent(course.averageScore)}
                    <span className="block text-xs text-muted-foreground">
                      {formatCount(course.gradedAttempts)} graded
                    </span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Pager label="Course pages" page={page} pages={pages} onPage={setPage} />
        </div>
      )}
    </Section>
  );
}

function BoardsSection({ admin }: { admin: AdminContext }) {
  const boards = useBoardInsights(admin.userId, admin.organizationId, true);
  return (
    <Section title="By board" id="boards-heading">
      <p className="mb-4 text-sm text-muted-foreground">
        As the owner you see each board’s learners in the courses distributed to that board: their
        enrolments, completions, scores and activity.
      </p>
      {boards.isPending ? (
        <LoadingBlock label="Loading boards…" />
      ) : boards.isError ? (
        <LoadError
          message={`Could not load the boards: ${boards.error.message}`}
          onRetry={() => void boards.refetch()}
        />
      ) : boards.data.length === 0 ? (
        <EmptyState>
          {admin.organizationName} has no boards yet. Create faculties or departments on the boards
          screen and add learners to them; each board’s figures then appear here.
        </EmptyState>
      ) : (
        <div className="grid gap-6">
          <div className="grid gap-6 lg:grid-cols-2">
            <FigureBarChart
              title="Enrolments per board"
              unit=""
              color="var(--chart-1)"
              describedBy="board-figures"
              items={boards.data.map((b) => ({ name: b.name, value: b.enrollments }))}
            />
            <FigureBarChart
              title="Completion per board"
              unit="%"
              max={100}
              color="var(--chart-3)"
              describedBy="board-figures"
              items={boards.data.map((b) => ({
                name: b.name,
                value: completionRate(b.completions, b.enrollments),
              }))}
            />
          </div>
          <Table id="board-figures" regionLabel="Figures per board">
            <TableCaption>Figures per board, for the board’s learners.</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">Board</TableHead>
                <TableHead scope="col" className="text-right">
                  Learners
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Active (7 days)
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Enrolments
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Completed
                </TableHead>
                <TableHead scope="col" className="text-right">
                  Average score
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {boards.data.map((board) => (
                <TableRow key={board.boardId}>
                  <TableHead scope="row" className="font-medium whitespace-normal">
                    {board.name}
                  </TableHead>
                  <TableCell className="text-right tabular-nums">
                    {formatCount(board.learners)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatCount(board.activeLearners7d)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatCount(board.enrollments)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatCount(board.completions)} (
                    {formatPercent(completionRate(board.completions, board.enrollments))})
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {formatPercent(board.averageScore)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  );
}
