import { BookOpen, Database, FileText, GraduationCap, Layers, Users } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import type { PlatformMetrics } from '@common/platform-metrics';
import { usePlatformMetrics } from '../api/platform-metrics';
import { formatCount, formatPercent } from '../lib/format';
import { AnalyticsPanel } from './analytics-panel';
import { Notice } from '@/components/ui/notice';
import { StatGrid, StatTile } from './stat-tile';

export const databaseRefetchMs = 10_000;

function CompletionSplit({ completion }: { completion: PlatformMetrics['completion'] }) {
  const total = completion.completed + completion.in_progress + completion.not_started;
  if (total === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        Course completion: no data yet (no enrolments).
      </p>
    );
  }
  const parts = [
    { label: 'Completed', value: completion.completed, className: 'bg-success' },
    { label: 'In progress', value: completion.in_progress, className: 'bg-chart-2' },
    { label: 'Not started', value: completion.not_started, className: 'bg-muted-foreground/40' },
  ];
  return (
    <section aria-labelledby="completion-heading" className="flex flex-col gap-2">
      <h4 id="completion-heading" className="text-sm font-medium">
        Course completion ({formatCount(total)} enrolments)
      </h4>
      <div className="flex h-3 w-full overflow-hidden rounded-full bg-muted" aria-hidden="true">
        {parts.map((p) => (
          <div
            key={p.label}
            className={p.className}
            style={{ width: `${(p.value / total) * 100}%` }}
          />
        ))}
      </div>
      <ul className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
        {parts.map((p) => (
          <li key={p.label} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className={`inline-block size-2.5 rounded-full ${p.className}`}
            />
            {p.label}: <strong className="tabular-nums">{formatPercent(p.value, total)}</strong>
            <span className="text-muted-foreground tabular-nums">({formatCount(p.value)})</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function ServiceRequests({ estimates }: { estimates: PlatformMetrics['estimates'] }) {
  const rows = [
    { label: 'Database (REST) requests', value: estimates.db_requests },
    { label: 'Auth requests', value: estimates.auth_requests },
    { label: 'Storage requests', value: estimates.storage_requests },
    { label: 'Function calls', value: estimates.functions_requests },
    { label: 'Realtime events', value: estimates.realtime_events },
  ];
  return (
    <section aria-labelledby="service-requests-heading" className="flex flex-col gap-2">
      <h4 id="service-requests-heading" className="text-sm font-medium">
        Requests served, last {estimates.window_hours} hours
      </h4>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {rows.map((r) => (
          <div key={r.label} className="flex justify-between gap-3 border-b py-1 last:border-b-0">
            <dt className="text-muted-foreground">{r.label}</dt>
            <dd className="m-0 font-medium tabular-nums">{formatCount(r.value)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function DatabaseAnalyticsPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { data, error, isPending } = usePlatformMetrics({
    enabled: open,
    refetchInterval: databaseRefetchMs,
  });
  const value = (n: number | undefined) =>
    isPending ? <Skeleton className="h-7 w-16" /> : formatCount(n);

  return (
    <AnalyticsPanel
      id="database-analytics"
      title="Database Analytics"
      description="Row counts and usage read from the database, refreshed every 10 seconds."
      icon={<Database />}
      open={open}
      onOpenChange={onOpenChange}
    >
      <div className="flex flex-col gap-5">
        {error ? (
          <Notice tone="error">
            <p className="m-0">Error fetching analytics: {error.message}</p>
            <p className="m-0">Some database queries encountered issues. Using available data.</p>
          </Notice>
        ) : null}
        {data && data.totals.users === 0 ? (
          <Notice tone="info">
            System operational! If you have users but seeing 0, there may be RLS policy
            restrictions.
          </Notice>
        ) : null}
        {data || isPending ? (
          <StatGrid>
            <StatTile label="Users" icon={<Users />} value={value(data?.totals.users)} />
            <StatTile label="Courses" icon={<BookOpen />} value={value(data?.totals.courses)} />
            <StatTile
              label="Enrolments"
              icon={<GraduationCap />}
              value={value(data?.totals.enrollments)}
            />
            <StatTile label="Notes" icon={<FileText />} value={value(data?.totals.notes)} />
            <StatTile label="Flashcards" icon={<Layers />} value={value(data?.totals.flashcards)} />
            <StatTile
              label="Active users"
              icon={<Users />}
              value={value(data?.totals.active_users_7d)}
              hint="last 7 days"
            />
          </StatGrid>
        ) : null}
        {data ? (
          <div className="grid gap-6 lg:grid-cols-2">
            <CompletionSplit completion={data.completion} />
            <ServiceRequests estimates={data.estimates} />
          </div>
        ) : null}
      </div>
    </AnalyticsPanel>
  );
}
