import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

interface StatTileProps {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  icon?: ReactNode;
  tone?: 'default' | 'error' | 'muted';
}

export function StatTile({ label, value, hint, icon, tone = 'default' }: StatTileProps) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-lg border bg-background p-3 sm:p-4">
      <dt className="flex items-center gap-1.5 text-xs font-medium text-muted-foreground sm:text-sm">
        {icon ? (
          <span aria-hidden="true" className="[&>svg]:size-4">
            {icon}
          </span>
        ) : null}
        {label}
      </dt>
      {/* One size per tone, never two conflicting ones: the home page renders without
          tailwind-merge (decision 0190). The value steps down a size on phones so that a word
          like "Operational" fits a half-width tile at 390 px, and wraps rather than overflows
          on narrower screens. */}
      <dd
        className={cn(
          'm-0 break-words tabular-nums',
          tone === 'muted'
            ? 'text-base font-medium text-muted-foreground'
            : 'text-lg font-semibold min-[420px]:text-xl sm:text-2xl',
          tone === 'error' && 'text-destructive',
        )}
      >
        {value}
      </dd>
      {hint ? <dd className="m-0 text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  );
}

export function StatGrid({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('grid grid-cols-2 gap-3 sm:grid-cols-3', className)}>{children}</dl>;
}
