import type { ReactNode } from 'react';
import { AlertCircle, CheckCircle2, Info } from 'lucide-react';
import { cva } from 'class-variance-authority';
import { cn } from '@/lib/utils';

export const noticeVariants = cva('flex items-start gap-2 rounded-md border p-3 text-sm', {
  variants: {
    tone: {
      error: 'border-destructive/40 bg-destructive/5 text-destructive',
      success:
        'border-emerald-700/30 bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
      info: 'border-border bg-muted text-foreground',
    },
  },
});

const icons = { error: AlertCircle, success: CheckCircle2, info: Info };

export type NoticeTone = keyof typeof icons;

/** An inline message: errors are announced at once (role="alert"), the rest politely. */
export function Notice({
  tone,
  className,
  children,
}: {
  tone: NoticeTone;
  className?: string;
  children: ReactNode;
}) {
  const Icon = icons[tone];
  return (
    <div
      data-slot="notice"
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(noticeVariants({ tone }), className)}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0">{children}</div>
    </div>
  );
}
