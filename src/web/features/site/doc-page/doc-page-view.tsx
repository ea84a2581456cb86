import { CalendarDays } from 'lucide-react';
import { findSiteRoute } from '@common/site-routes';
import type { DocPage } from '@/features/site/content/types';
import { Badge } from '@/components/ui/badge';
import { DocBlock } from './doc-blocks';
import { docIcons } from './doc-icons';
import { InlineText } from './inline-text';
import { TableOfContents } from './table-of-contents';

/** A documentation page from its content module: heading, lead, contents, sections. */
export function DocPageView({ page }: { page: DocPage }) {
  const Icon = page.icon ? docIcons[page.icon] : undefined;
  const section = findSiteRoute(page.path)?.section;

  return (
    <div className="mx-auto w-full max-w-6xl px-5 pt-8 pb-16 sm:px-8 lg:pt-12 xl:grid xl:grid-cols-[minmax(0,1fr)_13rem] xl:gap-14">
      <article className="min-w-0 max-w-3xl">
        <header className="border-b pb-8">
          <div className="flex items-center gap-3">
            {Icon && (
              <div className="flex size-10 items-center justify-center rounded-lg bg-primary text-primary-foreground shadow-sm">
                <Icon className="size-5" aria-hidden="true" />
              </div>
            )}
            {section && (
              <p className="text-sm font-semibold tracking-wide text-primary/80 uppercase">
                {section}
              </p>
            )}
          </div>
          <h1 className="mt-4 text-3xl leading-tight font-bold tracking-tight text-foreground sm:text-4xl">
            {page.heading}
          </h1>
          <p className="mt-4 text-lg leading-8 text-muted-foreground">
            <InlineText text={page.lead} />
          </p>
          {(page.meta || (page.badges && page.badges.length > 0)) && (
            <div className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-2">
              {page.meta && (
                <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
                  <CalendarDays className="size-4" aria-hidden="true" />
                  {page.meta}
                </p>
              )}
              {page.badges && page.badges.length > 0 && (
                <ul className="flex flex-wrap gap-2" aria-label="Highlights">
                  {page.badges.map((badge) => (
                    <li key={badge}>
                      <Badge variant="tag">{badge}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </header>

        <div className="mt-8 xl:hidden">
          <TableOfContents sections={page.sections} variant="inline" />
        </div>

        {page.sections.map((docSection) => (
          <section
            key={docSection.id}
            aria-labelledby={docSection.id}
            className="mt-12 space-y-5 first-of-type:mt-10"
          >
            <h2
              id={docSection.id}
              className="text-2xl font-semibold tracking-tight text-foreground"
            >
              {docSection.heading}
            </h2>
            {docSection.blocks.map((block, index) => (
              <DocBlock key={index} block={block} />
            ))}
          </section>
        ))}
      </article>

      <div className="hidden xl:block">
        <div className="sticky top-[calc(var(--header-height)+2rem)] max-h-[calc(100svh-var(--header-height)-4rem)] overflow-y-auto pb-4">
          <TableOfContents sections={page.sections} variant="aside" />
        </div>
      </div>
    </div>
  );
}
