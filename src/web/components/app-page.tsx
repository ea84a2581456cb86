/**
 * The frame of a learning-app screen and the states every screen shows: a title with an
 * optional way back and actions, card sections, an empty list that says what to do next,
 * loading and a load error with a retry. Features share these instead of keeping copies.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

export function AppPage({
  title,
  intro,
  back,
  actions,
  children,
  wide = false,
}: {
  title: ReactNode;
  intro?: ReactNode;
  back?: { to: string; label: string };
  actions?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div
      className={cn('mx-auto w-full px-4 py-6 sm:px-8 sm:py-8', wide ? 'max-w-6xl' : 'max-w-4xl')}
    >
      {back && (
        <Link
          to={back.to}
          className="mb-4 inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {back.label}
        </Link>
      )}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          {title && (
            <h1 className="font-serif text-2xl font-semibold tracking-tight text-primary sm:text-3xl">
              {title}
            </h1>
          )}
          {intro && <div className="mt-2 text-muted-foreground">{intro}</div>}
        </div>
        {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
      </div>
      <div className="mt-6 grid gap-6">{children}</div>
    </div>
  );
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
  /** A sentence under the title saying what the section is for. */
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
      <div className="mt-3">{children}</div>
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
