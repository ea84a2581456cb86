import { ArrowDown, ArrowRight, Check } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button';
import {
  adaptHero,
  adaptRoles,
  exampleFlow,
  exports,
  pipeline,
  roadmap,
  whatItDoes,
  workspace,
} from './adapt/adapt-content';
import { WorkspaceTabs } from './adapt/workspace-tabs';
import { AdaptHeroStages } from './adapt/adapt-hero-stages';
import { FeatureGrid } from './shared/feature-grid';
import { PageHero } from './shared/page-hero';
import { PageSection } from './shared/page-section';

function InputsToOutputs() {
  return (
    <div className="grid items-stretch gap-4 lg:grid-cols-[1fr_auto_1fr]">
      <div className="rounded-xl border bg-card p-5 shadow-xs sm:p-6">
        <h3 className="font-semibold text-foreground">{whatItDoes.inputsTitle}</h3>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          {whatItDoes.inputs.map(({ name, detail, icon: Icon }) => (
            <li key={name} className="flex items-center gap-3">
              <span className="inline-flex size-9 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <span className="text-sm">
                <span className="block font-medium text-foreground">{name}</span>
                <span className="text-muted-foreground">{detail}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div className="flex items-center justify-center text-primary" aria-hidden="true">
        <ArrowDown className="size-6 lg:hidden" />
        <ArrowRight className="hidden size-6 lg:block" />
      </div>
      <div className="rounded-xl border border-primary/30 bg-primary/5 p-5 shadow-xs sm:p-6">
        <h3 className="font-semibold text-foreground">{whatItDoes.outputsTitle}</h3>
        <ul className="mt-4 space-y-3">
          {whatItDoes.outputs.map(({ name, text }) => (
            <li key={name} className="flex gap-3">
              <Check className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span className="text-sm leading-relaxed">
                <span className="font-medium text-foreground">{name}: </span>
                <span className="text-muted-foreground">{text}</span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function Pipeline() {
  return (
    <ol className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      {pipeline.steps.map(({ title, text, stage, icon: Icon }, index) => (
        <li key={title} className="flex flex-col rounded-xl border bg-card p-5 shadow-xs">
          <div className="flex items-center justify-between">
            <span className="text-sm font-semibold text-primary">Step {index + 1}</span>
            <Icon className="size-5 text-primary" aria-hidden="true" />
          </div>
          <h3 className="mt-3 font-semibold text-foreground">{title}</h3>
          <p className="mt-2 flex-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
          <p className="mt-4 rounded-md border bg-muted/50 px-3 py-2 text-sm text-foreground">
            <span className="text-muted-foreground">Stage: </span>
            <span className="font-medium">{stage}</span>
          </p>
        </li>
      ))}
    </ol>
  );
}

function ExampleFlow() {
  return (
    <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
      {exampleFlow.steps.map(({ title, text }, index) => (
        <li key={title} className="flex gap-4 rounded-xl border bg-card p-5 shadow-xs">
          <span
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
            aria-hidden="true"
          >
            {index + 1}
          </span>
          <div>
            <h3 className="font-semibold text-foreground">{title}</h3>
            <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

export function LeAdaptPage() {
  const DeliveryIcon = exports.delivery.icon;
  return (
    <>
      <PageHero
        eyebrow={adaptHero.eyebrow}
        title={adaptHero.title}
        lead={
          <>
            <p className="font-medium text-foreground">{adaptHero.tagline}</p>
            <p className="mt-3">{adaptHero.lead}</p>
          </>
        }
        badges={adaptHero.badges}
        aside={<AdaptHeroStages />}
        actions={
          <>
            <a href={adaptHero.primaryAction.href} className={buttonVariants({ size: 'lg' })}>
              {adaptHero.primaryAction.label}
              <ArrowRight aria-hidden="true" />
            </a>
            <a
              href={adaptHero.secondaryAction.href}
              className={buttonVariants({ size: 'lg', variant: 'outline' })}
            >
              {adaptHero.secondaryAction.label}
            </a>
          </>
        }
      />

      <PageSection id="what-it-does" title={whatItDoes.title} intro={whatItDoes.intro}>
        <InputsToOutputs />
      </PageSection>

      <PageSection id="pipeline" title={pipeline.title} intro={pipeline.intro} tinted>
        <Pipeline />
      </PageSection>

      <PageSection id="workspace" title={workspace.title} intro={workspace.intro}>
        <WorkspaceTabs tabs={workspace.tabs} />
      </PageSection>

      <PageSection id="example-flow" title={exampleFlow.title} intro={exampleFlow.intro} tinted>
        <ExampleFlow />
      </PageSection>

      <PageSection id="exports" title={exports.title} intro={exports.intro}>
        <FeatureGrid items={exports.formats} columns={4} />
        <div className="mt-5 flex flex-col gap-4 rounded-xl border border-primary/30 bg-primary/5 p-5 sm:flex-row sm:items-center sm:p-6">
          <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <DeliveryIcon className="size-6" aria-hidden="true" />
          </span>
          <div>
            <h3 className="font-semibold text-foreground">{exports.delivery.title}</h3>
            <p className="mt-1 text-sm leading-relaxed text-muted-foreground">
              {exports.delivery.text}
            </p>
          </div>
        </div>
      </PageSection>

      <PageSection id="roles" title={adaptRoles.title} intro={adaptRoles.intro} tinted>
        <FeatureGrid items={adaptRoles.items} />
      </PageSection>

      <PageSection id="roadmap" title={roadmap.title} intro={roadmap.intro}>
        <FeatureGrid
          items={roadmap.items.map((item) => ({ ...item, tag: roadmap.tag }))}
          columns={4}
          tentative
        />
      </PageSection>
    </>
  );
}
