/**
 * The printable progress-and-results report: the filtered rows (up to a stated number) with a
 * summary, laid out for paper by report-print.css. "Print" opens the browser's print dialog;
 * the screen's controls and the app's navigation do not print.
 */
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, Printer } from 'lucide-react';
import { EmptyState, LoadError, LoadingBlock } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { useFilterOptions, type FilterOptions } from './api/get-filter-options';
import { useOrganizationReport, type ReportRow } from './api/get-organization-report';
import { formatCount, formatDateTime, formatDay, formatPercent } from './format';
import { insightsPaths } from './insights-paths';
import { AdminOnly, type AdminContext } from './insights-ui';
import { filtersToParams, readFilters, type ReportFilters } from './report-filters';
import { ReportTable } from './report-table';
import './report-print.css';

/** The most rows a printout holds; the CSV holds more. */
export const PRINT_ROW_LIMIT = 1000;

export function ReportPrintPage() {
  return (
    <AdminOnly title="Printable report">{(admin) => <PrintableReport admin={admin} />}</AdminOnly>
  );
}

function describeFilters(filters: ReportFilters, options: FilterOptions | undefined): string {
  const parts = [
    filters.course
      ? `Course: ${options?.courses.find((c) => c.id === filters.course)?.name ?? 'the one chosen'}`
      : 'All courses',
    filters.board
      ? `learners of ${options?.boards.find((b) => b.id === filters.board)?.name ?? 'the board chosen'}`
      : 'all boards',
  ];
  if (filters.from && filters.to)
    parts.push(`enrolled ${formatDay(filters.from)} to ${formatDay(filters.to)}`);
  else if (filters.from) parts.push(`enrolled from ${formatDay(filters.from)}`);
  else if (filters.to) parts.push(`enrolled up to ${formatDay(filters.to)}`);
  return parts.join('; ');
}

function summarize(rows: ReportRow[]) {
  const completed = rows.filter((r) => r.status === 'completed').length;
  const progress = rows.reduce((sum, r) => sum + r.progressPercent, 0) / (rows.length || 1);
  const graded = rows.filter((r) => r.averageScore !== null);
  const score =
    graded.length === 0
      ? null
      : graded.reduce((sum, r) => sum + r.averageScore!, 0) / graded.length;
  return { completed, progress, score, graded: graded.length };
}

function PrintableReport({ admin }: { admin: AdminContext }) {
  const [params] = useSearchParams();
  const { filters, errors } = readFilters(params);
  const options = useFilterOptions(admin.userId, admin.organizationId);
  const invalid = Object.values(errors).filter(Boolean);
  const report = useOrganizationReport(
    admin.userId,
    admin.organizationId,
    filters,
    PRINT_ROW_LIMIT,
    invalid.length === 0,
  );
  const back = `${insightsPaths.reports}${params.size ? `?${filtersToParams(filters)}` : ''}`;

  return (
    <article data-print-report className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-8 sm:py-8">
      <div data-print-hide className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <Link
          to={back}
          className="inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to reports
        </Link>
        <Button onClick={() => window.print()} disabled={!report.data}>
          <Printer aria-hidden="true" />
          Print
        </Button>
      </div>
      <div className="border-b pb-4">
        <h1 className="font-serif text-2xl font-semibold tracking-tight text-primary">
          Progress and results: {admin.organizationName}
        </h1>
        <p className="mt-2 text-sm text-muted-foreground">
          {describeFilters(filters, options.data)}. Prepared{' '}
          {formatDateTime(new Date().toISOString())}.
        </p>
      </div>
      <div className="mt-6 grid gap-6">
        {invalid.length > 0 ? (
          <Notice tone="error">
            These filters cannot be used: {invalid.join(' ')} Go back to the reports and choose them
            again.
          </Notice>
        ) : report.isPending ? (
          <LoadingBlock label="Loading the report…" />
        ) : report.isError ? (
          <LoadError
            message={`Could not load the report: ${report.error.message}`}
            onRetry={() => void report.refetch()}
          />
        ) : report.data.rows.length === 0 ? (
          <EmptyState>
            No enrolment matches these filters. Go back to the reports and widen the dates, or
            choose another course or board.
          </EmptyState>
        ) : (
          <PrintedRows rows={report.data.rows} truncated={report.data.truncated} />
        )}
      </div>
    </article>
  );
}

function PrintedRows({ rows, truncated }: { rows: ReportRow[]; truncated: boolean }) {
  const summary = summarize(rows);
  return (
    <>
      {truncated && (
        <Notice tone="info">
          This report holds the {formatCount(PRINT_ROW_LIMIT)} newest matching enrolments. Narrow
          the filters, or download the CSV for every row.
        </Notice>
      )}
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Enrolments</dt>
          <dd className="text-lg font-semibold tabular-nums">{formatCount(rows.length)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Completed</dt>
          <dd className="text-lg font-semibold tabular-nums">{formatCount(summary.completed)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Average progress</dt>
          <dd className="text-lg font-semibold tabular-nums">
            {formatPercent(Math.round(summary.progress * 10) / 10)}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Average of learners’ scores</dt>
          <dd className="text-lg font-semibold tabular-nums">
            {formatPercent(summary.score === null ? null : Math.round(summary.score * 10) / 10)}
          </dd>
        </div>
      </dl>
      <ReportTable
        rows={rows}
        caption={`${formatCount(rows.length)} ${rows.length === 1 ? 'enrolment' : 'enrolments'}, newest first. Average score: the mean of each learner's graded quiz attempts in the course.`}
      />
    </>
  );
}
