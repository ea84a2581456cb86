import type { ReactNode } from 'react';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { deferredPart } from '@/lib/deferred-part';
import { AtAGlance } from './home/at-a-glance';
import { executiveSummary, hero } from './home/home-content';
import { FeatureGrid } from './shared/feature-grid';
import { PageHero } from './shared/page-hero';
import { PageSection } from './shared/page-section';

// Far below the fold: its code (and words) load when the visitor gets near (decision 0194).
const HomeDetails = deferredPart(() =>
  import('./home/home-details').then((module) => module.HomeDetails),
);

/**
 * The home page's own content. Other features' parts (the live dashboards, the investor card)
 * come in as slots: the app composes them (app/home-route.tsx), so this feature imports none.
 */
export function HomePage({
  analytics,
  investors,
}: {
  analytics?: ReactNode;
  investors?: ReactNode;
}) {
  return (
    <>
      <PageHero
        eyebrow={hero.eyebrow}
        title={hero.title}
        lead={
          <>
            <p className="font-medium text-foreground">{hero.tagline}</p>
            <p className="mt-3">{hero.lead}</p>
          </>
        }
        badges={hero.badges}
        aside={<AtAGlance />}
        asideOnNarrow
        actions={
          <>
            <Link to={hero.primaryAction.to} className={buttonVariants({ size: 'lg' })}>
              {hero.primaryAction.label}
              <ArrowRight aria-hidden="true" />
            </Link>
            <Link
              to={hero.secondaryAction.to}
              className={buttonVariants({ size: 'lg', variant: 'outline' })}
            >
              {hero.secondaryAction.label}
            </Link>
          </>
        }
      />

      <PageSection id="executive-summary" title="Executive Summary" intro={executiveSummary.intro}>
        <FeatureGrid items={executiveSummary.points} columns={4} />
      </PageSection>

      {/* The panels bring their own headings; the wrapper only spaces them when they render. */}
      <div className="mx-auto w-full max-w-6xl px-4 not-empty:pb-14 sm:px-6 lg:px-8">
        {analytics}
      </div>

      <HomeDetails />

      <div className="mx-auto w-full max-w-6xl px-4 not-empty:pb-16 sm:px-6 lg:px-8">
        {investors}
      </div>
    </>
  );
}
