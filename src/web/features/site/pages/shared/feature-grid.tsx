import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';
import type { FeatureItem } from './types';

interface FeatureGridProps {
  items: readonly FeatureItem[];
  /** Number of columns on wide screens. */
  columns?: 2 | 3 | 4;
  /** Heading level of each card title, so the outline stays ordered under the section. */
  headingLevel?: 'h3' | 'h4';
  /** Quieter, dashed cards for things that are not available yet (roadmap items). */
  tentative?: boolean;
}

const columnClasses = {
  2: 'sm:grid-cols-2',
  3: 'sm:grid-cols-2 lg:grid-cols-3',
  4: 'sm:grid-cols-2 lg:grid-cols-4',
} as const;

/** A responsive grid of icon cards; each card may link to the page that explains more. */
export function FeatureGrid({
  items,
  columns = 3,
  headingLevel = 'h3',
  tentative = false,
}: FeatureGridProps) {
  const Heading = headingLevel;
  return (
    <ul className={cn('grid gap-4 sm:gap-5', columnClasses[columns])}>
      {items.map(({ title, text, icon: Icon, link, tag }) => (
        <li
          key={title}
          className={cn(
            'flex flex-col rounded-xl border p-5 text-card-foreground sm:p-6',
            tentative ? 'border-dashed border-input bg-background' : 'bg-card shadow-xs',
          )}
        >
          <div className="flex items-start justify-between gap-3">
            <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {tag && (
              <span className="rounded-full border px-2.5 py-0.5 text-xs font-medium text-muted-foreground">
                {tag}
              </span>
            )}
          </div>
          <Heading className="mt-4 text-base font-semibold text-foreground">{title}</Heading>
          <p className="mt-2 flex-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
          {link && (
            <Link
              to={link.to}
              className="mt-4 inline-flex items-center gap-1 self-start rounded-sm text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              {link.label}
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
