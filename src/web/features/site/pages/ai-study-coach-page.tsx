import { ArrowRight, MessageSquareQuote } from 'lucide-react';
import { buttonVariants } from '@/components/ui/button';
import {
  coachFeatures,
  coachHero,
  coachModes,
  conversationStates,
  dialoguesSection,
  helpFlow,
  howItWorks,
  institutionBenefits,
  methodology,
  studentBenefits,
} from './coach/coach-content';
import { DialogueTranscript } from './coach/dialogue-transcript';
import { CoachDemoLauncher } from './coach/coach-demo-launcher';
import { CoachHeroExcerpt } from './coach/coach-hero-excerpt';
import { exampleDialogues } from './coach/example-dialogues';
import { WalkthroughVideo } from './coach/walkthrough-video';
import { FeatureGrid } from './shared/feature-grid';
import { PageHero } from './shared/page-hero';
import { PageSection } from './shared/page-section';

function HowItWorks() {
  return (
    <>
      <h3 className="text-lg font-semibold text-foreground">{howItWorks.modesTitle}</h3>
      <ul className="mt-4 grid gap-4 md:grid-cols-3">
        {coachModes.map(({ name, summary, steps, icon: Icon }) => (
          <li key={name} className="rounded-xl border bg-card p-5 shadow-xs sm:p-6">
            <div className="flex items-center gap-3">
              <span className="inline-flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h4 className="font-semibold text-foreground">{name}</h4>
                <p className="text-sm text-muted-foreground">{summary}</p>
              </div>
            </div>
            <ul className="mt-4 list-disc space-y-1.5 pl-5 text-sm leading-relaxed text-muted-foreground marker:text-primary">
              {steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>

      <div className="mt-12 grid gap-10 lg:grid-cols-2">
        <div>
          <h3 className="text-lg font-semibold text-foreground">{conversationStates.title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-muted-foreground">
            {conversationStates.intro}
          </p>
          <ol className="mt-5 space-y-3">
            {conversationStates.states.map(({ name, text }, index) => (
              <li key={name} className="flex gap-4 rounded-xl border bg-card p-4 shadow-xs">
                <span
                  className="inline-flex size-8 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <div>
                  <h4 className="font-semibold text-foreground">{name}</h4>
                  <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
                </div>
              </li>
            ))}
          </ol>

          <h3 className="mt-10 text-lg font-semibold text-foreground">{helpFlow.requestsTitle}</h3>
          <p className="mt-2 text-sm leading-relaxed text-muted-foreground">
            {helpFlow.requestsIntro}
          </p>
          <ul className="mt-4 flex flex-wrap gap-2">
            {helpFlow.requests.map((request) => (
              <li
                key={request}
                className="inline-flex items-center gap-1.5 rounded-full border bg-card px-3 py-1.5 text-sm text-foreground"
              >
                <MessageSquareQuote className="size-4 text-primary" aria-hidden="true" />
                <q>{request}</q>
              </li>
            ))}
          </ul>
        </div>

        <div>
          <h3 className="text-lg font-semibold text-foreground">{helpFlow.title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{helpFlow.intro}</p>
          <ol className="relative mt-5 space-y-5 border-l-2 border-primary/30 pl-6">
            {helpFlow.steps.map(({ title, text }, index) => (
              <li key={title} className="relative">
                <span
                  className="absolute top-0 -left-[2.2rem] inline-flex size-7 items-center justify-center rounded-full border-2 border-primary bg-background text-xs font-semibold text-foreground"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <h4 className="font-semibold text-foreground">{title}</h4>
                <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
              </li>
            ))}
          </ol>
        </div>
      </div>
    </>
  );
}

export function AiStudyCoachPage() {
  return (
    <>
      <PageHero
        eyebrow={coachHero.eyebrow}
        title={coachHero.title}
        lead={
          <>
            <p className="font-medium text-foreground">{coachHero.tagline}</p>
            <p className="mt-3">{coachHero.lead}</p>
          </>
        }
        badges={coachHero.badges}
        aside={<CoachHeroExcerpt />}
        actions={
          <>
            <a href={coachHero.primaryAction.href} className={buttonVariants({ size: 'lg' })}>
              {coachHero.primaryAction.label}
              <ArrowRight aria-hidden="true" />
            </a>
            <a
              href={coachHero.secondaryAction.href}
              className={buttonVariants({ size: 'lg', variant: 'outline' })}
            >
              {coachHero.secondaryAction.label}
            </a>
          </>
        }
      />

      <PageSection id="features" title={coachFeatures.title} intro={coachFeatures.intro}>
        <FeatureGrid items={coachFeatures.items} />
      </PageSection>

      <PageSection id="how-it-works" title={howItWorks.title} intro={howItWorks.intro} tinted>
        <HowItWorks />
      </PageSection>

      <PageSection id="methodology" title={methodology.title} intro={methodology.intro}>
        <FeatureGrid items={methodology.items} />
      </PageSection>

      <PageSection id="coach" title={dialoguesSection.title} intro={dialoguesSection.intro} tinted>
        <WalkthroughVideo />
        <div className="mt-10">
          <CoachDemoLauncher />
        </div>
        <div className="mt-10 grid gap-6 lg:grid-cols-2">
          {exampleDialogues.map((dialogue) => (
            <DialogueTranscript key={dialogue.id} dialogue={dialogue} />
          ))}
        </div>
      </PageSection>

      <PageSection id="benefits" title={studentBenefits.title}>
        <FeatureGrid items={studentBenefits.items} />
      </PageSection>

      <PageSection
        id="institutions"
        title={institutionBenefits.title}
        intro={institutionBenefits.intro}
        tinted
      >
        <FeatureGrid items={institutionBenefits.items} />
      </PageSection>
    </>
  );
}
