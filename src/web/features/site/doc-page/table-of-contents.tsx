import { useEffect, useState } from 'react';
import { ChevronDown, ListTree } from 'lucide-react';
import type { DocSection } from '@/features/site/content/types';
import { cn } from '@/lib/utils';

/** Highlights the section whose heading was passed last while scrolling down. */
function useActiveSection(ids: string[]): string | undefined {
  const [active, setActive] = useState<string>();
  const key = ids.join(' ');

  useEffect(() => {
    const headings = key
      .split(' ')
      .map((id) => document.getElementById(id))
      .filter((element): element is HTMLElement => element !== null);
    if (headings.length === 0 || !('IntersectionObserver' in window)) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries.filter((entry) => entry.isIntersecting);
        const top = visible.sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top)[0];
        if (top) setActive(top.target.id);
      },
      { rootMargin: '-80px 0px -65% 0px' },
    );
    for (const heading of headings) observer.observe(heading);
    return () => observer.disconnect();
  }, [key]);

  return active;
}

function TocLinks({ sections, active }: { sections: DocSection[]; active?: string }) {
  return (
    <ol className="space-y-1 border-l text-sm">
      {sections.map((section) => (
        <li key={section.id}>
          <a
            href={`#${section.id}`}
            aria-current={active === section.id ? 'location' : undefined}
            className={cn(
              '-ml-px block border-l-2 py-1 pr-2 pl-3 leading-snug transition-colors hover:border-border hover:text-foreground',
              active === section.id
                ? 'border-primary font-medium text-primary'
                : 'border-transparent text-muted-foreground',
            )}
          >
            {section.heading}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** "On this page": a sticky column on wide screens, a collapsible list above the text otherwise. */
export function TableOfContents({
  sections,
  variant,
}: {
  sections: DocSection[];
  variant: 'aside' | 'inline';
}) {
  const active = useActiveSection(sections.map((section) => section.id));
  if (sections.length < 2) return null;

  if (variant === 'aside') {
    return (
      <nav aria-label="On this page" className="space-y-3">
        <p className="flex items-center gap-2 text-xs font-semibold tracking-wider text-foreground uppercase">
          <ListTree className="size-4 text-primary" aria-hidden="true" />
          On this page
        </p>
        <TocLinks sections={sections} active={active} />
      </nav>
    );
  }

  // A native disclosure: no script needed, so the prerendered page already works before JS.
  return (
    <details className="group rounded-lg border bg-muted/40">
      <summary className="flex cursor-pointer list-none items-center justify-between gap-2 rounded-lg px-4 py-3 text-sm font-semibold [&::-webkit-details-marker]:hidden">
        <span className="flex items-center gap-2">
          <ListTree className="size-4 text-primary" aria-hidden="true" />
          On this page
        </span>
        <ChevronDown
          className="size-4 transition-transform group-open:rotate-180"
          aria-hidden="true"
        />
      </summary>
      <nav aria-label="On this page (contents)" className="px-4 pb-4">
        <TocLinks sections={sections} active={active} />
      </nav>
    </details>
  );
}
