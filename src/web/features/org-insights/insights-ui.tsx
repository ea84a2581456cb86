/**
 * Pieces the organization admin's screens share: the gate that lets only the organization's
 * admins in (with a sentence for everyone else, not an error), a labelled field with its
 * error, and a figure tile.
 */
import { useId, type ComponentProps, type ReactNode } from 'react';
import { AppPage, LoadError, LoadingBlock } from '@/components/app-page';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { useAppSession } from '@/lib/app-session';
import { cn } from '@/lib/utils';
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

export function Field({
  label,
  hint,
  error,
  className,
  ...input
}: ComponentProps<typeof Input> & { label: string; hint?: ReactNode; error?: string }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className="leading-snug">
        {label}
      </Label>
      <Input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint && (
        <p id={hintId} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled native select with its error, styled like the inputs. */
export function SelectField({
  label,
  error,
  className,
  children,
  ...select
}: ComponentProps<'select'> & { label: string; error?: string }) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className="leading-snug">
        {label}
      </Label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        className="h-9 w-full min-w-0 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive"
        {...select}
      >
        {children}
      </select>
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
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
