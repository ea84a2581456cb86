import { ArrowRight, Check } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import {
  adminFeatures,
  architecture,
  architectureLinks,
  environments,
  insights,
  learnerFeatures,
  overviewActions,
  overviewHero,
  overviewSections,
  roles,
  rolesNote,
  whyChoose,
} from './platform/platform-content';
import { PlatformHeroSummary } from './platform/platform-hero-summary';
import { FeatureGrid } from './shared/feature-grid';
import { PageHero } from './shared/page-hero';
import { PageSection } from './shared/page-section';
import { RelatedLinks } from './shared/related-links';

export function PlatformOverviewPage() {
  return (
    <>
      <PageHero
        eyebrow={overviewHero.eyebrow}
        title={overviewHero.title}
        lead={
          <>
            <p className="font-medium text-foreground">{overviewHero.tagline}</p>
            <p className="mt-3">{overviewHero.lead}</p>
          </>
        }
        badges={overviewHero.badges}
        aside={<PlatformHeroSummary />}
        actions={
          <>
            <a href={overviewActions.primary.href} className={buttonVariants({ size: 'lg' })}>
              {overviewActions.primary.label}
            </a>
            <Link
              to={overviewActions.secondary.to}
              className={buttonVariants({ size: 'lg', variant: 'outline' })}
            >
              {overviewActions.secondary.label}
              <ArrowRight aria-hidden="true" />
            </Link>
          </>
        }
      />

      <PageSection
        id="dual-environments"
        title={overviewSections.environments.title}
        intro={overviewSections.environments.intro}
      >
        <div className="grid gap-5 lg:grid-cols-2">
          {environments.map(({ name, audience, icon: Icon, summary, points }) => (
            <article key={name} className="flex flex-col rounded-xl border bg-card p-6 shadow-xs">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="text-xl font-semibold text-foreground">{name}</h3>
                  <p className="text-sm text-muted-foreground">{audience}</p>
                </div>
              </div>
              <p className="mt-4 leading-relaxed text-muted-foreground">{summary}</p>
              <ul className="mt-4 space-y-2">
                {points.map((point) => (
                  <li key={point} className="flex gap-2 text-sm text-foreground">
                    <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {point}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </PageSection>

      <PageSection
        id="roles"
        title={overviewSections.roles.title}
        intro={overviewSections.roles.intro}
        tinted
      >
        <ol className="grid gap-5 lg:grid-cols-3">
          {roles.map(({ name, alsoKnownAs, icon: Icon, inherits, rights }, index) => (
            <li key={name} className="flex flex-col rounded-xl border bg-card p-6 shadow-xs">
              <div className="flex items-center justify-between gap-3">
                <span className="inline-flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span className="text-sm font-medium text-muted-foreground">Level {index + 1}</span>
              </div>
              <h3 className="mt-4 text-lg font-semibold text-foreground">
                {name}
                {alsoKnownAs && (
                  <span className="ml-2 text-sm font-normal text-muted-foreground">
                    ({alsoKnownAs})
                  </span>
                )}
              </h3>
              {inherits && <p className="mt-2 text-sm font-medium text-foreground">{inherits}</p>}
              <ul className="mt-3 space-y-2">
                {rights.map((right) => (
                  <li
                    key={right}
                    className="flex gap-2 text-sm leading-relaxed text-muted-foreground"
                  >
                    <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {right}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
        <p className="mt-6 max-w-3xl text-sm leading-relaxed text-muted-foreground">
          {rolesNote.text}
        </p>
        <RelatedLinks links={[rolesNote.link]} />
      </PageSection>

      <PageSection
        id="features"
        title={overviewSections.features.title}
        intro={overviewSections.features.intro}
      >
        <h3 className="text-lg font-semibold text-foreground">For learners</h3>
        <div className="mt-4">
          <FeatureGrid items={learnerFeatures} columns={4} headingLevel="h4" />
        </div>
        <h3 className="mt-10 text-lg font-semibold text-foreground">For administrators</h3>
        <div className="mt-4">
          <FeatureGrid items={adminFeatures} headingLevel="h4" />
        </div>
      </PageSection>

      <PageSection
        id="insights"
        title={overviewSections.insights.title}
        intro={overviewSections.insights.intro}
        tinted
      >
        <FeatureGrid items={insights} columns={4} />
      </PageSection>

      <PageSection id="why-choose" title={overviewSections.whyChoose.title}>
        <FeatureGrid items={whyChoose} />
      </PageSection>

      <PageSection
        id="architecture"
        title={overviewSections.architecture.title}
        intro={overviewSections.architecture.intro}
        tinted
      >
        <FeatureGrid items={architecture} />
        <RelatedLinks links={architectureLinks} />
      </PageSection>
    </>
  );
}
