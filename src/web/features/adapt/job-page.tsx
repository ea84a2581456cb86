/**
 * One LE Adapt job at /app/adapt/:jobId: its stages' live progress (polled while it runs),
 * retry and cancel, the insights panel (engine or model, duration and what each stage
 * changed), and, once done, the review screen: the structured and the final lesson side by
 * side per section, accepted or edited, the quiz builder, the fidelity gate, and a Reviewer's
 * approval.
 */
import { useState } from 'react';
import { CheckCircle2, Loader2, RotateCcw, XCircle } from 'lucide-react';
import { toast } from 'sonner';
import {
  STAGE_LABELS,
  type LessonSection,
  type ReviewedLesson,
  type StructuredLesson,
} from '@common/adapt-lesson';
import { AppPage, LoadError, LoadingBlock, Section } from '@/components/app-page';
import { MarkdownDocument } from '@/components/markdown-document';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Label } from '@/components/ui/label';
import { Notice } from '@/components/ui/notice';
import { Textarea } from '@/components/ui/textarea';
import { useAppSession } from '@/lib/app-session';
import { useRouteParams } from '@/lib/use-route-params';
import {
  isActive,
  useApproveJob,
  useCancelJob,
  useJob,
  useRetryJob,
  useReviewSection,
  type AdaptJobDetail,
  type AdaptStage,
  type SectionReview,
} from './api/adapt-jobs';
import { adminWorkspace, formatLabels, StatusBadge } from './adapt-labels';
import { JobOutputs } from './job-outputs';
import { QuizBuilder } from './quiz-builder';

export function AdaptJobPage() {
  const { jobId = '' } = useRouteParams();
  const job = useJob(jobId);
  return (
    <AppPage
      title={job.data?.title ?? 'LE Adapt job'}
      back={{ to: '/app/adapt', label: 'LE Adapt' }}
      wide
    >
      {job.isPending ? (
        <LoadingBlock label="Loading the job…" />
      ) : job.isError ? (
        <LoadError
          message={`Could not load the job: ${job.error.message}`}
          onRetry={() => void job.refetch()}
        />
      ) : !job.data ? (
        <Notice tone="error">There is no such job, or it is not yours to see.</Notice>
      ) : (
        <JobView job={job.data} />
      )}
    </AppPage>
  );
}

function JobView({ job }: { job: AdaptJobDetail }) {
  const structured = job.adapt_job_stages.find((s) => s.name === 'structure' && s.status === 'done')
    ?.output as StructuredLesson | undefined;
  const reviewed = job.adapt_job_stages.find((s) => s.name === 'review' && s.status === 'done')
    ?.output as ReviewedLesson | undefined;
  return (
    <>
      <Progress job={job} />
      <Insights stages={job.adapt_job_stages} />
      {job.status === 'done' && structured && reviewed && (
        <ReviewScreen job={job} structured={structured} reviewed={reviewed} />
      )}
    </>
  );
}

function Progress({ job }: { job: AdaptJobDetail }) {
  const retry = useRetryJob(job.id);
  const cancel = useCancelJob(job.id);
  const done = job.adapt_job_stages.filter((s) => s.status === 'done').length;
  return (
    <Section
      title="Progress"
      id="progress"
      description={`${formatLabels[job.source_format]}${job.source_name ? ` · ${job.source_name}` : ''} · reading grade ${job.reading_level}`}
    >
      <div className="flex flex-wrap items-center gap-3">
        <StatusBadge status={job.status} />
        <span className="text-sm text-muted-foreground" aria-live="polite">
          {done} of {job.adapt_job_stages.length} stages done
        </span>
        {isActive(job.status) && (
          <Button
            variant="outline"
            size="sm"
            disabled={cancel.isPending}
            onClick={() =>
              cancel.mutate(undefined, {
                onSuccess: () => toast.success('The job is cancelled.'),
                onError: (e) => toast.error(e.message),
              })
            }
          >
            <XCircle aria-hidden="true" />
            Cancel job
          </Button>
        )}
        {(job.status === 'failed' || job.status === 'cancelled') && (
          <Button
            size="sm"
            disabled={retry.isPending}
            onClick={() =>
              retry.mutate(undefined, {
                onSuccess: () => toast.success('The job is queued again.'),
                onError: (e) => toast.error(e.message),
              })
            }
          >
            <RotateCcw aria-hidden="true" />
            Retry from the failed stage
          </Button>
        )}
      </div>
      <ol className="mt-4 grid gap-2" aria-label="Stages">
        {job.adapt_job_stages.map((stage) => (
          <li key={stage.stage} className="rounded-md border p-3" data-stage={stage.name}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium">
                {stage.stage}. {STAGE_LABELS[stage.name]}
              </span>
              <span className="flex items-center gap-2 text-sm">
                {stage.status === 'running' && (
                  <Loader2
                    aria-hidden="true"
                    className="size-4 animate-spin motion-reduce:animate-none"
                  />
                )}
                <StatusBadge status={stage.status} />
                {stage.duration_ms !== null && stage.status === 'done' && (
                  <span className="text-muted-foreground">{formatDuration(stage.duration_ms)}</span>
                )}
              </span>
            </div>
            {stage.error && (
              <p className="mt-2 text-sm text-destructive" role="alert">
                {stage.error}
              </p>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function Insights({ stages }: { stages: AdaptStage[] }) {
  const reported = stages.filter((s) => s.report);
  if (reported.length === 0) return null;
  return (
    <Section
      title="Insights"
      id="insights"
      description="Which engine or model produced each stage, how long it took and what it changed."
    >
      <dl className="grid gap-3">
        {reported.map((stage) => (
          <div key={stage.stage} className="rounded-md border p-3">
            <dt className="font-medium">
              {STAGE_LABELS[stage.name]}{' '}
              <Badge variant={stage.report!.engine.kind === 'model' ? 'default' : 'secondary'}>
                {stage.report!.engine.label}
              </Badge>{' '}
              <span className="text-sm font-normal text-muted-foreground">
                {formatDuration(stage.report!.durationMs)}
              </span>
            </dt>
            <dd>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {stage.report!.changes.map((change, i) => (
                  <li key={i}>{change}</li>
                ))}
              </ul>
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}

function ReviewScreen({
  job,
  structured,
  reviewed,
}: {
  job: AdaptJobDetail;
  structured: StructuredLesson;
  reviewed: ReviewedLesson;
}) {
  const reviews = new Map(job.adapt_section_reviews.map((r) => [r.section_id, r]));
  const final = reviewed.lesson;
  const decided = final.sections.filter((s) => reviews.has(s.id)).length;
  return (
    <>
      <Section
        title="Review"
        id="review"
        description={`The structured lesson beside the final one, section by section. ${decided} of ${final.sections.length} sections reviewed.`}
      >
        <div className="grid gap-3 text-sm">
          <h3 className="font-semibold">Learning objectives</h3>
          <ul className="list-disc pl-5">
            {final.objectives.map((o, i) => (
              <li key={i}>{o.text}</li>
            ))}
          </ul>
        </div>
        <ol className="mt-4 grid gap-4" aria-label="Sections">
          {final.sections.map((section) => (
            <SectionReviewItem
              key={section.id}
              jobId={job.id}
              approved={job.approved_at !== null}
              structured={structured.sections.find((s) => s.id === section.id)}
              final={section}
              review={reviews.get(section.id)}
              findings={reviewed.findings.filter((f) => f.place.sectionId === section.id).length}
            />
          ))}
        </ol>
      </Section>
      <Section title="Glossary" id="glossary">
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          {final.glossary.map((entry) => (
            <div key={entry.term}>
              <dt className="font-medium">{entry.term}</dt>
              <dd className="text-muted-foreground">
                {entry.simpleDefinition ?? entry.definition}
              </dd>
            </div>
          ))}
        </dl>
      </Section>
      <QuizBuilder job={job} generated={final.quiz} sections={final.sections} />
      <Approval job={job} reviewed={reviewed} />
      {job.approved_at !== null && <JobOutputs job={job} />}
    </>
  );
}

function SectionReviewItem({
  jobId,
  approved,
  structured,
  final,
  review,
  findings,
}: {
  jobId: string;
  approved: boolean;
  structured: LessonSection | undefined;
  final: LessonSection;
  review: SectionReview | undefined;
  findings: number;
}) {
  const save = useReviewSection(jobId);
  const [editing, setEditing] = useState(false);
  const [heading, setHeading] = useState(review?.heading ?? final.heading);
  const [body, setBody] = useState(review?.body ?? final.body);
  const headingText = review?.state === 'edited' ? review.heading! : final.heading;
  const bodyText = review?.state === 'edited' ? review.body! : final.body;
  const bodyId = `edit-${final.id}`;
  return (
    <li className="rounded-md border p-3" aria-label={headingText}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{headingText}</h3>
        <span className="flex gap-2">
          {findings > 0 && <Badge variant="outline">{findings} findings</Badge>}
          {review && (
            <Badge variant="secondary">{review.state === 'edited' ? 'Edited' : 'Accepted'}</Badge>
          )}
        </span>
      </div>
      {editing ? (
        <form
          className="mt-3 grid gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(
              { sectionId: final.id, state: 'edited', heading, body },
              {
                onSuccess: () => {
                  setEditing(false);
                  toast.success('Your edit is saved.');
                },
                onError: (e) => toast.error(e.message),
              },
            );
          }}
        >
          <Field label="Heading" value={heading} onChange={(e) => setHeading(e.target.value)} />
          <div className="grid gap-2">
            <Label htmlFor={bodyId}>Text (Markdown)</Label>
            <Textarea
              id={bodyId}
              rows={10}
              value={body}
              onChange={(e) => setBody(e.target.value)}
            />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save edit
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => setEditing(false)}>
              Discard
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="mt-3 grid gap-4 lg:grid-cols-2">
            <div className="min-w-0">
              <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                Structured (stage 2)
              </p>
              <MarkdownDocument text={structured?.body ?? ''} demoteHeadings />
            </div>
            <div className="min-w-0">
              <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                {review?.state === 'edited' ? 'Your edit' : 'Final (stage 4)'}
              </p>
              <MarkdownDocument text={bodyText} demoteHeadings />
            </div>
          </div>
          {!approved && (
            <div className="mt-3 flex gap-2">
              <Button
                size="sm"
                variant="outline"
                disabled={save.isPending}
                aria-label={`Accept "${headingText}"`}
                onClick={() =>
                  save.mutate(
                    { sectionId: final.id, state: 'accepted' },
                    { onError: (e) => toast.error(e.message) },
                  )
                }
              >
                <CheckCircle2 aria-hidden="true" />
                Accept
              </Button>
              <Button
                size="sm"
                variant="outline"
                aria-label={`Edit "${headingText}"`}
                onClick={() => setEditing(true)}
              >
                Edit
              </Button>
            </div>
          )}
        </>
      )}
    </li>
  );
}

function Approval({ job, reviewed }: { job: AdaptJobDetail; reviewed: ReviewedLesson }) {
  const { userId, workspace } = useAppSession();
  const approve = useApproveJob(job.id);
  const [note, setNote] = useState('');
  const [acknowledged, setAcknowledged] = useState(false);
  const lost = reviewed.fidelity.lost;
  const ownJobInOrganization = job.organization_id !== null && job.owner_id === userId;
  const admin = adminWorkspace(workspace) !== null;
  return (
    <Section title="Approval" id="approval">
      {lost.length > 0 ? (
        <Notice tone="error">
          The fidelity gate found {lost.length} key fact{lost.length === 1 ? '' : 's'} of the source
          missing from the lesson: {lost.map((f) => f.text).join(', ')}.
        </Notice>
      ) : (
        <Notice tone="success">
          Every one of the source's {reviewed.fidelity.facts.length} key facts is in the lesson.
        </Notice>
      )}
      {job.approved_at ? (
        <p className="mt-3 text-sm">
          Approved on {new Date(job.approved_at).toLocaleString('en-GB')}
          {job.approval_note ? `: ${job.approval_note}` : '.'}
        </p>
      ) : ownJobInOrganization && !admin ? (
        <p className="mt-3 text-sm text-muted-foreground">
          Another instructor or an admin of the organization approves this job.
        </p>
      ) : (
        <form
          className="mt-3 grid max-w-lg gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            approve.mutate(
              { note },
              {
                onSuccess: () => toast.success('The job is approved.'),
                onError: (e) => toast.error(e.message),
              },
            );
          }}
        >
          <div className="grid gap-2">
            <Label htmlFor="approval-note">Note (optional)</Label>
            <Textarea
              id="approval-note"
              rows={2}
              maxLength={2000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </div>
          {lost.length > 0 && (
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                checked={acknowledged}
                onChange={(e) => setAcknowledged(e.target.checked)}
                className="mt-0.5 size-4 accent-primary"
              />
              I have seen what was lost and approve the lesson anyway.
            </label>
          )}
          <div>
            <Button
              type="submit"
              disabled={approve.isPending || (lost.length > 0 && !acknowledged)}
            >
              Approve lesson
            </Button>
          </div>
        </form>
      )}
    </Section>
  );
}
