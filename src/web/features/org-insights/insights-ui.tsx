/**
 * Pieces the organization admin's screens share: the gate that lets only the organization's
 * admins in (with a sentence for everyone else, not an error) and a figure tile.
 */
import type { ReactNode } from 'react';
import { AppPage, LoadError, LoadingBlock } from '@/components/app-page';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { useInsightsAccess, type InsightsAccess } from './api/get-insights-access';

export interface AdminContext {
  userId: string;
  organizationId: string;
  organizationName: string;
  access: InsightsAccess;
}

/**
 * Renders the page only for an admin of the workspace's organization. Personal mode, board
 * admins and other roles get a sentence saying whose screen this is and where to go instead.
 */
export function AdminOnly({
  title,
  children,
}: {
  title: string;
  children: (admin: AdminContext) => ReactNode;
}) {
  const session = useAppSession();
  const workspace = session.workspace;
  const organizationId = workspace.kind === 'organization' ? workspace.organizationId : null;
  const access = useInsightsAccess(session.userId, organizationId);
  if (workspace.kind !== 'organization') {
    return (
      <AppPage title={title}>
        <Notice tone="info">
          This screen belongs to an organization’s admins. Choose an organization in the sidebar if
          you administer one.
        </Notice>
      </AppPage>
    );
  }
  if (access.isPending) {
    return (
      <AppPage title={title}>
        <LoadingBlock label="Checking your access…" />
      </AppPage>
    );
  }
  if (access.isError) {
    return (
      <AppPage title={title}>
        <LoadError
          message={`Could not check your access: ${access.error.message}`}
          onRetry={() => void access.refetch()}
        />
      </AppPage>
    );
  }
  if (!access.data.admin) {
    return (
      <AppPage title={title}>
        <Notice tone="info">
          Only the owner and organization-wide admins of {workspace.organizationName} use this
          screen. A board admin manages their board’s people and enrolments; ask your organization’s
          owner for organization-wide access.
        </Notice>
      </AppPage>
    );
  }
  return (
    <>
      {children({
        userId: session.userId,
        organizationId: workspace.organizationId,
        organizationName: workspace.organizationName,
        access: access.data,
      })}
    </>
  );
}

export function FigureTile({
  label,
  value,
  detail,
}: {
  label: string;
  value: string;
  detail?: ReactNode;
}) {
  return (
    <div className="rounded-xl border bg-card p-4 text-card-foreground shadow-sm">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-serif text-2xl font-semibold tabular-nums text-primary">{value}</dd>
      {detail && <dd className="mt-1 text-sm text-muted-foreground">{detail}</dd>}
    </div>
  );
}
