import type { ReactNode } from 'react';
import { CheckCircle2, Circle, Eye, Loader2, Rocket, Server, Users, XCircle } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import type { VercelDeployment } from '@common/vercel-analytics';
import {
  isNotConfigured,
  useVercelAnalytics,
  useVercelDeployments,
  useVercelProjects,
} from '../api/vercel-analytics';
import { formatAge, formatBytes, formatCount } from '../lib/format';
import { AnalyticsPanel } from './analytics-panel';
import { Notice } from '@/components/ui/notice';
import { StatGrid, StatTile } from './stat-tile';

export const noProjectsText = 'No Vercel projects found. Check your API token permissions.';

const stateStyles: Record<string, { label: string; icon: ReactNode; className: string }> = {
  READY: {
    label: 'Ready',
    icon: <CheckCircle2 />,
    className: 'border-success/40 bg-success/10 text-success',
  },
  BUILDING: {
    label: 'Building',
    icon: <Loader2 className="motion-safe:animate-spin" />,
    className: 'border-info/40 bg-info/10 text-info',
  },
  ERROR: {
    label: 'Error',
    icon: <XCircle />,
    className: 'border-destructive/40 bg-destructive/10 text-destructive',
  },
};

function StateBadge({ state }: { state: string }) {
  const style = stateStyles[state] ?? {
    label: state.charAt(0) + state.slice(1).toLowerCase(),
    icon: <Circle />,
    className: 'border-border bg-muted text-muted-foreground',
  };
  return (
    <span
      data-state-badge={state}
      className={cn(
        'inline-flex items-center gap-1 rounded-md border px-2 py-0.5 text-xs font-medium [&_svg]:size-3.5',
        style.className,
      )}
    >
      <span aria-hidden="true" className="contents">
        {style.icon}
      </span>
      {style.label}
    </span>
  );
}

function DeploymentList({ deployments }: { deployments: VercelDeployment[] }) {
  const recent = deployments.slice(0, 3);
  if (recent.length === 0) {
    return <p className="text-sm text-muted-foreground">No deployments yet.</p>;
  }
  return (
    <section aria-labelledby="recent-deployments-heading" className="flex flex-col gap-2">
      <h4 id="recent-deployments-heading" className="text-sm font-medium">
        Recent deployments
      </h4>
      <ul className="flex flex-col divide-y rounded-lg border" data-testid="deployment-list">
        {recent.map((d) => (
          <li key={d.uid} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5">
            <span className="flex min-w-0 flex-col">
              <span className="truncate font-medium">{d.name}</span>
              {d.url ? (
                <span className="truncate text-xs text-muted-foreground">{d.url}</span>
              ) : null}
            </span>
            <span className="flex items-center gap-3">
              <StateBadge state={d.state} />
              <time
                className="text-xs text-muted-foreground tabular-nums"
                dateTime={new Date(d.created).toISOString()}
              >
                {formatAge(d.created)}
              </time>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function DeploymentAnalyticsPanel({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  const projects = useVercelProjects(open);
  const notConfigured = isNotConfigured(projects.data) ? projects.data : null;
  const firstProject = notConfigured ? undefined : projects.data?.projects[0];
  // Deployments and traffic are asked for only once the token has proved to see a project, so
  // an empty account costs one call a minute, not three, and an unconfigured one a single call.
  const deployments = useVercelDeployments(open && Boolean(firstProject));
  const analytics = useVercelAnalytics(firstProject?.id, open);

  const errors = notConfigured
    ? []
    : [projects.error, deployments.error, analytics.error].filter((e): e is Error => Boolean(e));
  const noProjects = !notConfigured && projects.data && projects.data.projects.length === 0;

  return (
    <AnalyticsPanel
      id="deployment-analytics"
      title="Deployment Analytics"
      description="Read from the hosting provider: projects every 60 seconds, deployments and traffic every 30 seconds."
      icon={<Rocket />}
      open={open}
      onOpenChange={onOpenChange}
    >
      <div className="flex flex-col gap-5">
        {notConfigured ? (
          <Notice tone="info">
            <p className="m-0 font-medium">{notConfigured.message}</p>
            {notConfigured.setup ? (
              <p className="m-0 text-muted-foreground">{notConfigured.setup}</p>
            ) : null}
          </Notice>
        ) : null}
        {errors.map((e) => (
          <Notice key={e.message} tone="error">
            {e.message}
          </Notice>
        ))}
        {noProjects ? <Notice tone="info">{noProjectsText}</Notice> : null}
        {!notConfigured ? (
          <>
            {firstProject ? (
              <p className="m-0 text-sm text-muted-foreground">
                Project <strong className="text-foreground">{firstProject.name}</strong>
                {projects.data && projects.data.projects.length > 1
                  ? ` (1 of ${projects.data.projects.length})`
                  : ''}
              </p>
            ) : null}
            {firstProject && !analytics.error ? (
              <StatGrid className="lg:grid-cols-4">
                <StatTile
                  label="Page views"
                  icon={<Eye />}
                  value={
                    analytics.data ? (
                      formatCount(analytics.data.pageViews)
                    ) : (
                      <Skeleton className="h-7 w-16" />
                    )
                  }
                  hint={analytics.data ? `last ${analytics.data.windowHours} hours` : undefined}
                />
                <StatTile
                  label="Visitors"
                  icon={<Users />}
                  value={
                    analytics.data ? (
                      formatCount(analytics.data.visitors)
                    ) : (
                      <Skeleton className="h-7 w-16" />
                    )
                  }
                  hint={analytics.data ? `last ${analytics.data.windowHours} hours` : undefined}
                />
                <StatTile
                  label="Edge requests"
                  icon={<Server />}
                  tone="muted"
                  value={
                    analytics.data?.requests != null
                      ? formatCount(analytics.data.requests)
                      : 'not available'
                  }
                  hint="not reported by the provider's analytics API"
                />
                <StatTile
                  label="Bandwidth"
                  icon={<Server />}
                  tone="muted"
                  value={
                    analytics.data?.bandwidth != null
                      ? formatBytes(analytics.data.bandwidth)
                      : 'not available'
                  }
                  hint="not reported by the provider's analytics API"
                />
              </StatGrid>
            ) : null}
            {deployments.data ? (
              <DeploymentList deployments={deployments.data} />
            ) : (projects.isPending || (firstProject && deployments.isPending)) &&
              errors.length === 0 ? (
              <Skeleton className="h-32 w-full" />
            ) : null}
          </>
        ) : null}
      </div>
    </AnalyticsPanel>
  );
}
