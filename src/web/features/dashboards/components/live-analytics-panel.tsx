import { lazy, Suspense } from 'react';
import { Activity, CheckCircle2, Clock, Database, Users, UserCheck, XCircle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { usePlatformMetrics } from '../api/platform-metrics';
import { formatClock, formatCount, formatMs } from '../lib/format';
import { AnalyticsPanel } from './analytics-panel';
import { Notice } from '@/components/ui/notice';
import { StatGrid, StatTile } from './stat-tile';

// recharts is the heaviest part of the panel: load it after the page is interactive.
const RequestsChart = lazy(() => import('./requests-chart'));

export const liveRefetchMs = 5_000;

export function LiveAnalyticsPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const { data, error, isPending } = usePlatformMetrics({
    enabled: open,
    refetchInterval: liveRefetchMs,
  });
  const failed = Boolean(error);
  const show = (value: string) =>
    failed ? 'Error' : isPending ? <Skeleton className="h-7 w-16" /> : value;

  const status = failed ? (
    <Badge variant="destructive">
      <XCircle aria-hidden="true" /> Error
    </Badge>
  ) : data ? (
    <Badge variant="secondary">
      <CheckCircle2 aria-hidden="true" /> Live
    </Badge>
  ) : null;

  return (
    <AnalyticsPanel
      id="live-analytics"
      title="Live Platform Analytics"
      description="Measured by this deployment's gateway and database, refreshed every 5 seconds."
      icon={<Activity />}
      open={open}
      onOpenChange={onOpenChange}
      status={status}
    >
      <div className="flex flex-col gap-5">
        {error ? (
          <Notice tone="error">
            Error fetching live data: {error.message}. Retrying automatically...
          </Notice>
        ) : null}
        <StatGrid>
          <StatTile
            label="Total users"
            icon={<Users />}
            tone={failed ? 'error' : 'default'}
            value={show(formatCount(data?.totals.users))}
          />
          <StatTile
            label="Active today"
            icon={<UserCheck />}
            tone={failed ? 'error' : 'default'}
            value={show(formatCount(data?.totals.active_today))}
            hint="distinct users, last 24 hours"
          />
          <StatTile
            label="Active this week"
            icon={<UserCheck />}
            tone={failed ? 'error' : 'default'}
            value={show(formatCount(data?.totals.active_users_7d))}
            hint="distinct users, last 7 days"
          />
          <StatTile
            label="Response time"
            icon={<Clock />}
            tone={failed ? 'error' : data && data.response_time_ms === null ? 'muted' : 'default'}
            value={show(formatMs(data?.response_time_ms))}
            hint="API median, last minute"
          />
          <StatTile
            label="DB connections"
            icon={<Database />}
            tone={failed ? 'error' : 'default'}
            value={show(formatCount(data?.db_connections))}
            hint="open client connections"
          />
          <StatTile
            label="System status"
            icon={failed ? <XCircle /> : <CheckCircle2 />}
            tone={failed ? 'error' : 'default'}
            value={failed ? 'Error' : isPending ? <Skeleton className="h-7 w-24" /> : 'Operational'}
            hint={
              failed ? 'check logs' : data ? `updated ${formatClock(data.generated_at)}` : undefined
            }
          />
        </StatGrid>
        {data?.requests_last_hour ? (
          <Suspense fallback={<Skeleton className="h-52 w-full" />}>
            <RequestsChart points={data.requests_last_hour} />
          </Suspense>
        ) : data ? (
          <p className="text-sm text-muted-foreground">
            Requests per minute: no data yet. The gateway records request counts every 10 seconds.
          </p>
        ) : null}
      </div>
    </AnalyticsPanel>
  );
}
