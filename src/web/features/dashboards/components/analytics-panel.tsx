import type { ReactNode } from 'react';
import { ChevronDown } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { cn } from '@/lib/utils';

interface AnalyticsPanelProps {
  id: string;
  title: string;
  description: string;
  icon: ReactNode;
  open: boolean;
  onOpenChange(open: boolean): void;
  /** A short status shown beside the title, visible while collapsed too. */
  status?: ReactNode;
  children: ReactNode;
}

/** A card whose heading is a button that expands and collapses the panel body. */
export function AnalyticsPanel({
  id,
  title,
  description,
  icon,
  open,
  onOpenChange,
  status,
  children,
}: AnalyticsPanelProps) {
  const headingId = `${id}-heading`;
  return (
    <Collapsible open={open} onOpenChange={onOpenChange} asChild>
      <Card className="gap-0 py-0" data-testid={id} role="region" aria-labelledby={headingId}>
        <CardHeader className="px-0">
          <h3 id={headingId} className="m-0">
            <CollapsibleTrigger
              className={cn(
                'flex w-full items-center gap-3 rounded-xl px-4 py-4 text-left sm:px-6',
                'hover:bg-muted/60 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
              )}
            >
              <span className="text-primary [&>svg]:size-5" aria-hidden="true">
                {icon}
              </span>
              <span className="flex min-w-0 flex-1 flex-col gap-0.5">
                <span className="text-base font-semibold text-foreground sm:text-lg">{title}</span>
                <CardDescription className="font-normal">{description}</CardDescription>
              </span>
              {status ? <span className="hidden sm:inline-flex">{status}</span> : null}
              <ChevronDown
                aria-hidden="true"
                className={cn('size-5 shrink-0 transition-transform', open && 'rotate-180')}
              />
              <span className="sr-only">{open ? 'Collapse panel' : 'Expand panel'}</span>
            </CollapsibleTrigger>
          </h3>
          {status ? <div className="px-4 pb-3 sm:hidden">{status}</div> : null}
        </CardHeader>
        <CollapsibleContent>
          <CardContent className="border-t px-4 py-5 sm:px-6">{children}</CardContent>
        </CollapsibleContent>
      </Card>
    </Collapsible>
  );
}
