import { ArrowRight, Check } from 'lucide-react';
import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { FeatureGrid } from '../shared/feature-grid';
import { PageSection } from '../shared/page-section';
import { RelatedLinks } from '../shared/related-links';
import { ArchitectureDiagram } from './architecture-diagram';
import {
  aiIntegration,
  platformFeatures,
  securityCompliance,
  systemArchitecture,
  technicalBenefits,
  technologyStack,
} from './home-details-content';

function NamedFeatureList({
  title,
  items,
}: {
  title: string;
  items: readonly { title: string; icon: (typeof platformFeatures.learner)[number]['icon'] }[];
}) {
  return (
    <div className="rounded-xl border bg-card p-5 shadow-xs sm:p-6">
      <h3 className="text-lg font-semibold text-foreground">{title}</h3>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {items.map(({ title: name, icon: Icon }) => (
          <li key={name} className="flex items-center gap-3 text-sm text-foreground">
            <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
              <Icon className="size-4" aria-hidden="true" />
            </span>
            {name}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The home page's sections below the live analytics: loaded when the visitor gets near them,
 * their HTML prerendered (decision 0194).
 */
export function HomeDetails() {
  return (
    <>
      <PageSection
        id="system-architecture"
        title="System Architecture"
        intro={systemArchitecture.intro}
        tinted
      >
        <ArchitectureDiagram
          client={systemArchitecture.client}
          services={systemArchitecture.services}
          hosting={systemArchitecture.hosting}
        />
        <RelatedLinks links={systemArchitecture.links} />
      </PageSection>

      <PageSection id="technology-stack" title="Technology Stack" intro={technologyStack.intro}>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {technologyStack.groups.map(({ name, icon: Icon, items }) => (
            <li key={name} className="rounded-xl border bg-card p-5 shadow-xs">
              <div className="flex items-center gap-2">
                <Icon className="size-5 text-primary" aria-hidden="true" />
                <h3 className="font-semibold text-foreground">{name}</h3>
              </div>
              <ul className="mt-3 space-y-2">
                {items.map((item) => (
                  <li
                    key={item}
                    className="flex gap-2 text-sm leading-relaxed text-muted-foreground"
                  >
                    <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {item}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <RelatedLinks links={technologyStack.links} />
      </PageSection>

      <PageSection id="ai-integration" title="AI Integration" intro={aiIntegration.intro} tinted>
        <div className="grid gap-5 lg:grid-cols-2">
          {aiIntegration.products.map(({ title, text, points, icon: Icon, link }) => (
            <article key={title} className="flex flex-col rounded-xl border bg-card p-6 shadow-xs">
              <div className="flex items-center gap-3">
                <span className="inline-flex size-11 items-center justify-center rounded-lg bg-primary text-primary-foreground">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="text-xl font-semibold text-foreground">{title}</h3>
              </div>
              <p className="mt-4 leading-relaxed text-muted-foreground">{text}</p>
              <ul className="mt-4 space-y-2">
                {points.map((point) => (
                  <li key={point} className="flex gap-2 text-sm text-foreground">
                    <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                    {point}
                  </li>
                ))}
              </ul>
              <Link
                to={link.to}
                className={buttonVariants({ variant: 'outline', className: 'mt-6 self-start' })}
              >
                {link.label}
                <ArrowRight aria-hidden="true" />
              </Link>
            </article>
          ))}
        </div>
        <h3 className="mt-10 text-lg font-semibold text-foreground">Model routing</h3>
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          {aiIntegration.models.map(({ name, text, tag }) => (
            <div key={name} className="rounded-lg border bg-background p-4">
              <dt className="flex items-center gap-2 font-medium text-foreground">
                {name}
                {tag && (
                  <span className="rounded-full border px-2 py-0.5 text-xs font-medium text-muted-foreground">
                    {tag}
                  </span>
                )}
              </dt>
              <dd className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</dd>
            </div>
          ))}
        </dl>
      </PageSection>

      <PageSection id="platform-features" title="Platform Features" intro={platformFeatures.intro}>
        <div className="grid gap-5 lg:grid-cols-2">
          <NamedFeatureList title="For learners" items={platformFeatures.learner} />
          <NamedFeatureList title="For administrators" items={platformFeatures.admin} />
        </div>
        <p className="mt-5 rounded-lg border-l-4 border-primary bg-primary/5 p-4 text-sm leading-relaxed text-foreground">
          {platformFeatures.organization}
        </p>
        <RelatedLinks links={platformFeatures.links} />
      </PageSection>

      <PageSection
        id="technical-benefits"
        title="Technical Benefits"
        intro={technicalBenefits.intro}
        tinted
      >
        <FeatureGrid items={technicalBenefits.items} />
      </PageSection>

      <PageSection
        id="security-compliance"
        title="Security & Compliance"
        intro={securityCompliance.intro}
      >
        <ul
          className="mb-6 flex flex-wrap gap-2"
          aria-label="Regulations the platform is built for"
        >
          {securityCompliance.frameworks.map((framework) => (
            <li
              key={framework}
              className="rounded-md border bg-card px-3 py-1 text-sm font-semibold text-foreground"
            >
              {framework}
            </li>
          ))}
        </ul>
        <FeatureGrid items={securityCompliance.items} />
        <RelatedLinks links={securityCompliance.links} />
      </PageSection>
    </>
  );
}
