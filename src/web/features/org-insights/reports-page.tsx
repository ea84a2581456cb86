/**
 * Reporting: progress and results of the organization's enrolments, filtered by course, board
 * and enrolment dates, previewed here, downloaded as CSV (every matching row up to a stated
 * limit) or opened as a printable report.
 */
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { Download, Loader2, Printer } from 'lucide-react';
import { toast } from 'sonner';
import { AppPage, EmptyState, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { Button } from '@/components/ui/button';
import { useAppSession } from '@/lib/app-session';
import { downloadCsv } from '@/lib/csv';
import { scopeBoardId } from '@/lib/workspace-scope';
import { useFilterOptions, type FilterOptions } from './api/get-filter-options';
import {
  EXPORT_ROW_LIMIT,
  getOrganizationReport,
  useOrganizationReport,
} from './api/get-organization-report';
import { formatCount } from './format';
import { insightsPaths } from './insights-paths';
import { AdminOnly, type AdminContext } from './insights-ui';
import { reportCsv, reportFilename } from './report-csv';
import { ReportFilterForm } from './report-filter-form';
import { filtersToParams, readFilters, type ReportFilters } from './report-filters';
import { ReportTable } from './report-table';

const PREVIEW_ROWS = 25;

export function ReportsPage() {
  return <AdminOnly title="Reports">{(admin) => <Reports admin={admin} />}</AdminOnly>;
}

function Reports({ admin }: { admin: AdminContext }) {
  const options = useFilterOptions(admin.userId, admin.organizationId);
  return (
    <AppPage
      title="Reports"
      wide
      intro={`Progress and results of ${admin.organizationName}’s enrolments, newest first.`}
    >
      {options.isPending ? (
        <LoadingBlock label="Loading courses and boards…" />
      ) : options.isError ? (
        <LoadError
          message={`Could not load the courses and boards: ${options.error.message}`}
          onRetry={() => void options.refetch()}
        />
      ) : (
        <ReportScreen admin={admin} options={options.data} />
      )}
    </AppPage>
  );
}

function ReportScreen({ admin, options }: { admin: AdminContext; options: FilterOptions }) {
  const [params, setParams] = useSearchParams();
  const { filters, errors } = readFilters(params);
  // A board chosen in the workspace is the report's first filter (decision 0141); the
  // admin can widen it to every board.
  const workspaceBoard = scopeBoardId(useAppSession());
  const boardKnown = options.boards.some((b) => b.id === workspaceBoard);
  useEffect(() => {
    if (workspaceBoard && boardKnown && params.size === 0) {
      setParams(filtersToParams({ ...filters, board: workspaceBoard }), { replace: true });
    }
    // Only when the screen opens without filters, not after each change of them.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [workspaceBoard, boardKnown]);
  const preview = useOrganizationReport(admin.userId, admin.organizationId, filters, PREVIEW_ROWS);
  const scopeName =
    options.courses.find((c) => c.id === filters.course)?.name ??
    options.boards.find((b) => b.id === filters.board)?.name;
  const filtered = Object.values(filters).some(Boolean);

  const exportCsv = useMutation({
    mutationFn: () => getOrganizationReport(admin.organizationId, filters, EXPORT_ROW_LIMIT),
    onSuccess: ({ rows, truncated }) => {
      downloadCsv(reportFilename(new Date(), scopeName), reportCsv(rows));
      if (truncated) {
        toast.warning(
          `Downloaded the ${formatCount(rows.length)} newest rows, the most one file holds. Narrow the dates, course or board to export the rest.`,
        );
      } else {
        toast.success(
          `Downloaded ${formatCount(rows.length)} ${rows.length === 1 ? 'row' : 'rows'} as CSV.`,
        );
      }
    },
    onError: (err) => toast.error(`The CSV was not made: ${err.message}`),
  });

  function apply(next: ReportFilters) {
    setParams(filtersToParams(next), { replace: true });
  }

  const rows = preview.data?.rows ?? [];
  return (
    <>
      <Section title="Filters" id="report-filters">
        <ReportFilterForm
          key={params.toString()}
          applied={filters}
          options={options}
          initialErrors={errors}
          onApply={apply}
        />
      </Section>
      <Section title="Progress and results" id="report-rows">
        <div className="mb-4 flex flex-wrap gap-2">
          <Button
            onClick={() => exportCsv.mutate()}
            disabled={exportCsv.isPending || rows.length === 0}
          >
            {exportCsv.isPending ? (
              <Loader2 aria-hidden="true" className="animate-spin" />
            ) : (
              <Download aria-hidden="true" />
            )}
            {exportCsv.isPending ? 'Preparing the CSV…' : 'Download CSV'}
          </Button>
          <Button asChild variant="outline">
            <Link to={insightsPaths.printableReport(filters)}>
              <Printer aria-hidden="true" />
              Printable report
            </Link>
          </Button>
        </div>
        {preview.isPending ? (
          <LoadingBlock label="Loading the report…" />
        ) : preview.isError ? (
          <LoadError
            message={`Could not load the report: ${preview.error.message}`}
            onRetry={() => void preview.refetch()}
          />
        ) : rows.length === 0 ? (
          <EmptyState>
            {filtered
              ? 'No enrolment matches these filters. Widen the dates, or choose another course or board.'
              : 'Nobody is enrolled in the organization’s courses yet. Once learners are enrolled, their progress and results appear here.'}
          </EmptyState>
        ) : (
          <ReportTable
            rows={rows}
            caption={
              preview.data.truncated
                ? `The ${PREVIEW_ROWS} newest enrolments that match. The CSV and the printable report hold the rest.`
                : `All ${formatCount(rows.length)} matching ${rows.length === 1 ? 'enrolment' : 'enrolments'}.`
            }
          />
        )}
      </Section>
    </>
  );
}
