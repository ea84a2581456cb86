import type { ReactNode } from 'react';

interface PageHeroProps {
  eyebrow?: string;
  title: string;
  lead: ReactNode;
  badges?: readonly string[];
  actions?: ReactNode;
  /**
   * Shown beside the text when the page area is wide (a container query, so the sidebar
   * counts). An illustration is left out when narrow; facts (`asideOnNarrow`) move below.
   */
  aside?: ReactNode;
  asideOnNarrow?: boolean;
}

/** The top of a marketing page: the page's only h1, a lead, badges and calls to action. */
export function PageHero({
  eyebrow,
  title,
  lead,
  badges,
  actions,
  aside,
  asideOnNarrow = false,
}: PageHeroProps) {
  return (
    <header className="@container relative overflow-hidden border-b bg-gradient-to-b from-primary/[0.07] via-background to-background">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-14 sm:px-6 sm:py-20 lg:px-8 @4xl:grid-cols-[minmax(0,1fr)_auto] @4xl:items-center">
        <div className="max-w-3xl">
          {eyebrow && (
            <p className="mb-3 text-sm font-semibold tracking-wide text-primary uppercase">
              {eyebrow}
            </p>
          )}
          <h1 className="text-4xl font-bold tracking-tight text-balance text-foreground sm:text-5xl">
            {title}
          </h1>
          <div className="mt-5 text-lg leading-relaxed text-pretty text-muted-foreground sm:text-xl">
            {lead}
          </div>
          {badges && badges.length > 0 && (
            <ul className="mt-6 flex flex-wrap gap-2" aria-label="Highlights">
              {badges.map((badge) => (
                <li
                  key={badge}
                  className="rounded-full border border-primary/25 bg-background px-3 py-1 text-sm font-medium text-foreground shadow-xs"
                >
                  {badge}
                </li>
              ))}
            </ul>
          )}
          {actions && <div className="mt-8 flex flex-wrap gap-3">{actions}</div>}
        </div>
        {aside && <div className={asideOnNarrow ? undefined : 'hidden @4xl:block'}>{aside}</div>}
      </div>
    </header>
  );
}
