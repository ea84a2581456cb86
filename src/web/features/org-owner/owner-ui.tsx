/** Pieces the owner's screens share: page frame, the owner check, sections and list states. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Skeleton } from '@/components/ui/skeleton';
import { useAppSession, type Workspace } from '@/lib/app-session';
import { cn } from '@/lib/utils';

export type OwnedWorkspace = Extract<Workspace, { kind: 'organization' }>;

export function OwnerPage({
  title,
  intro,
  back,
  children,
}: {
  title: ReactNode;
  intro?: ReactNode;
  back?: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-6 sm:px-8 sm:py-8">
      {back && (
        <Link
          to={back.to}
          className="mb-4 inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {back.label}
        </Link>
      )}
      <h1 className="font-serif text-2xl font-semibold tracking-tight text-primary sm:text-3xl">
        {title}
      </h1>
      {intro && <div className="mt-2 text-muted-foreground">{intro}</div>}
      <div className="mt-6 grid gap-6">{children}</div>
    </div>
  );
}

/**
 * Renders the page for the organization's owner; anyone else learns whose screen it is. The
 * database refuses their writes either way (decision 0100); this only spares them a dead end.
 */
export function OwnerOnly({
  title,
  children,
}: {
  title: string;
  children: (workspace: OwnedWorkspace) => ReactNode;
}) {
  const { workspace } = useAppSession();
  if (workspace.kind !== 'organization' || !workspace.isOwner) {
    return (
      <OwnerPage title={title}>
        <Notice tone="info">
          This screen belongs to an organization&rsquo;s owner. Choose an organization you own in
          the workspace menu, or ask your organization&rsquo;s owner.
        </Notice>
      </OwnerPage>
    );
  }
  return <>{children(workspace)}</>;
}

export function Section({
  title,
  id,
  description,
  children,
  className,
}: {
  title: string;
  id: string;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section
      aria-labelledby={id}
      className={cn(
        'rounded-xl border bg-card p-4 text-card-foreground shadow-sm sm:p-5',
        className,
      )}
    >
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {description && <div className="mt-1 text-sm text-muted-foreground">{description}</div>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** An empty list: what is missing and what to do about it. */
export function EmptyState({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
      <p>{children}</p>
      {action && <div className="mt-3">{action}</div>}
    </div>
  );
}

export function LoadingBlock({ label }: { label: string }) {
  return (
    <div aria-busy="true" className="grid gap-2">
      <span className="sr-only">{label}</span>
      <Skeleton className="h-5 w-2/3" />
      <Skeleton className="h-5 w-1/2" />
    </div>
  );
}

export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Notice tone="error">
      <span>{message} </span>
      <Button size="sm" variant="outline" className="mt-2" onClick={onRetry}>
        <RotateCw aria-hidden="true" />
        Try again
      </Button>
    </Notice>
  );
}

export function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-destructive">
      {message}
    </p>
  );
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
