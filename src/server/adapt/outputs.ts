/**
 * LE Adapt's outputs at the edge of the domain: an approved job's lesson (stage 4's output with
 * the reviewer's section edits applied) rendered into every export format and stored, published
 * into a course, or delivered to the organization's webhook. Reads and requests run as the
 * caller, so row-level security and the adapt procedures decide who may; the jobs that do the
 * work run as the platform.
 */
import type { Config } from '../config';
import type { Database, JwtClaims, Queryable } from '../db/types';
import type { Logger } from '../logger';
import type { Storage } from '../storage/storage';
import {
  PROFILE_RULES,
  checklistItem,
  oneIdeaScreens,
  readingMinutes,
} from './accessible/accessible-stage';
import { lessonAudio } from './export/audio';
import { lessonHtml } from './export/html';
import { lessonMarkdown } from './export/markdown';
import { scormJson } from './export/scorm-json';
import { scormPackage } from './export/scorm-package';
import type { AccessibleLesson, ReviewedLesson } from './lesson';
import { bankQuestionsOf } from './publish/bank-questions';
import { attemptWebhook } from './webhooks/deliver';
import { newWebhookSecret } from './webhooks/signature';
import { WebhookTargetRefused, checkWebhookTarget } from './webhooks/target-guard';

export const EXPORTS_BUCKET = 'adapt-exports';
export const EXPORT_JOB = 'adapt-exports';
export const WEBHOOK_JOB = 'adapt-webhook-delivery';
/** Attempts of one delivery: the first and the queue's retries (registry.ts). */
export const WEBHOOK_ATTEMPTS = 5;
/** How long the package link in a webhook payload works. */
const PACKAGE_LINK_SECONDS = 7 * 24 * 3600;
const DOWNLOAD_LINK_SECONDS = 15 * 60;

export class OutputError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OutputError';
  }
}

/** The procedures' errors as the client sees them. */
function fromDatabase(error: unknown): never {
  const e = error as { code?: string; message?: string };
  const message = e.message ?? 'The request failed.';
  switch (e.code) {
    case 'P0002':
      throw new OutputError(404, 'not_found', message);
    case '55000':
      throw new OutputError(409, 'not_ready', message);
    case '42501':
      throw new OutputError(403, 'forbidden', message);
    case '22023':
    case '23514':
    case '23505':
    case '22P02':
      throw new OutputError(400, 'invalid', message);
    default:
      throw error;
  }
}

type SectionReview = {
  section_id: string;
  state: 'accepted' | 'edited';
  heading: string | null;
  body: string | null;
};

/** The reviewer's edits in the lesson: an edited section is laid out again for its profile. */
export function applySectionReviews(
  lesson: AccessibleLesson,
  reviews: readonly SectionReview[],
): AccessibleLesson {
  const rules = PROFILE_RULES[lesson.profile];
  return {
    ...lesson,
    sections: lesson.sections.map((section) => {
      const review = reviews.find((r) => r.section_id === section.id);
      if (review?.state !== 'edited' || review.body === null) return section;
      const screens = rules.screens === 'one-idea' ? oneIdeaScreens(review.body) : [review.body];
      return {
        ...section,
        heading: review.heading ?? section.heading,
        body: review.body,
        screens,
        checklist: lesson.profile === 'adhd' ? screens.map(checklistItem) : [],
        minutes: readingMinutes(review.body, rules.wordsPerMinute),
      };
    }),
  };
}

export interface ApprovedJob {
  id: string;
  title: string;
  organizationId: string | null;
  lesson: AccessibleLesson;
}

/** An approved job's final lesson, read through `q` (as the caller, or as the platform). */
export async function loadApprovedLesson(q: Queryable, jobId: string): Promise<ApprovedJob> {
  const { rows } = await q.query<{
    id: string;
    title: string;
    organization_id: string | null;
    approved_at: string | null;
    output: ReviewedLesson | null;
  }>(
    `select j.id, j.title, j.organization_id, j.approved_at, s.output
       from public.adapt_jobs j
       left join public.adapt_job_stages s on s.job_id = j.id and s.name = 'review' and s.status = 'done'
      where j.id = $1`,
    [jobId],
  );
  const job = rows[0];
  if (!job) throw new OutputError(404, 'not_found', 'No such job');
  if (!job.approved_at || !job.output) {
    throw new OutputError(
      409,
      'not_ready',
      'A Reviewer approves the lesson before it leaves LE Adapt',
    );
  }
  const reviews = await q.query<SectionReview>(
    'select section_id, state, heading, body from public.adapt_section_reviews where job_id = $1',
    [jobId],
  );
  return {
    id: job.id,
    title: job.title,
    organizationId: job.organization_id,
    lesson: applySectionReviews(job.output.lesson, reviews.rows),
  };
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

function requireUuid(value: string, what: string): void {
  if (!isUuid(value)) throw new OutputError(400, 'invalid', `${what} must be a UUID`);
}

// ----- Exports ------------------------------------------------------------------------------

export type ExportFormat =
  'markdown' | 'html' | 'html-translation' | 'mp3' | 'scorm-1.2' | 'scorm-2004' | 'scorm-json';

export interface ExportFile {
  name: string;
  format: ExportFormat;
  contentType: string;
  bytes: Uint8Array;
}

/** Every export of a lesson; the MP3 and its timings are made once and shared. */
export function buildExports(
  lesson: AccessibleLesson,
  jobId: string,
): { files: ExportFile[]; audioSeconds: number } {
  const wordsPerMinute = lesson.profile === 'dyslexia' || lesson.profile === 'ell' ? 140 : 160;
  const audio = lessonAudio(lesson, { wordsPerMinute });
  const encode = (text: string) => new TextEncoder().encode(text);
  const files: ExportFile[] = [
    {
      name: 'lesson.md',
      format: 'markdown',
      contentType: 'text/markdown; charset=utf-8',
      bytes: encode(lessonMarkdown(lesson)),
    },
    {
      name: 'lesson.html',
      format: 'html',
      contentType: 'text/html; charset=utf-8',
      bytes: encode(
        lessonHtml(lesson, { audio: { src: 'lesson.mp3', sentences: audio.sentences } }),
      ),
    },
    { name: 'lesson.mp3', format: 'mp3', contentType: 'audio/mpeg', bytes: audio.mp3 },
    {
      name: 'scorm-1.2.zip',
      format: 'scorm-1.2',
      contentType: 'application/zip',
      bytes: scormPackage(lesson, { version: '1.2', identifier: jobId, audio }),
    },
    {
      name: 'scorm-2004.zip',
      format: 'scorm-2004',
      contentType: 'application/zip',
      bytes: scormPackage(lesson, { version: '2004', identifier: jobId, audio }),
    },
    {
      name: 'scorm.json',
      format: 'scorm-json',
      contentType: 'application/json',
      bytes: encode(
        JSON.stringify(
          scormJson(lesson, {
            identifier: jobId,
            audio: {
              href: 'lesson.mp3',
              durationSeconds: audio.durationSeconds,
              sentences: audio.sentences,
            },
          }),
          null,
          2,
        ),
      ),
    },
  ];
  if (lesson.translation) {
    files.splice(2, 0, {
      name: `lesson.${lesson.translation.language}.html`,
      format: 'html-translation',
      contentType: 'text/html; charset=utf-8',
      bytes: encode(lessonHtml(lesson, { useTranslation: true })),
    });
  }
  return { files, audioSeconds: audio.durationSeconds };
}

/** The exports job: renders and stores every file of an approved job. */
export async function runExportJob(
  deps: { db: Database; storage: Storage; log: Logger },
  jobId: string,
): Promise<void> {
  await deps.db.query(`update public.adapt_exports set status = 'running' where job_id = $1`, [
    jobId,
  ]);
  try {
    const job = await loadApprovedLesson(deps.db, jobId);
    await deps.storage.ensureBucket(EXPORTS_BUCKET, { fileSizeLimit: 200 * 1024 * 1024 });
    const { files, audioSeconds } = buildExports(job.lesson, jobId);
    for (const file of files) {
      await deps.storage.putObject(
        EXPORTS_BUCKET,
        `${jobId}/${file.name}`,
        file.bytes,
        file.contentType,
        {
          upsert: true,
        },
      );
    }
    await deps.db.query(
      `update public.adapt_exports
          set status = 'done', files = $2::jsonb, audio_seconds = $3, error = null, finished_at = now()
        where job_id = $1`,
      [
        jobId,
        JSON.stringify(
          files.map((f) => ({
            name: f.name,
            format: f.format,
            contentType: f.contentType,
            bytes: f.bytes.length,
          })),
        ),
        audioSeconds,
      ],
    );
    deps.log.info('adapt exports stored', { job: jobId, files: files.length });
  } catch (error) {
    await deps.db.query(
      `update public.adapt_exports set status = 'failed', error = $2, finished_at = now() where job_id = $1`,
      [jobId, ((error as Error).message || 'The export failed').slice(0, 2000)],
    );
    throw error;
  }
}

export async function requestExports(
  db: Database,
  claims: JwtClaims,
  jobs: { send(name: string, data?: object): Promise<string> },
  jobId: string,
) {
  requireUuid(jobId, 'the job id');
  const { rows } = await db
    .queryAsRole<{ job_id: string; status: string }>(
      claims,
      'select job_id, status from adapt.request_exports($1)',
      [jobId],
    )
    .catch(fromDatabase);
  await jobs.send(EXPORT_JOB, { jobId });
  return rows[0]!;
}

export interface ExportListing {
  status: 'none' | 'queued' | 'running' | 'done' | 'failed';
  error: string | null;
  audioSeconds: number | null;
  files: Array<{ name: string; format: ExportFormat; bytes: number; url: string }>;
}

/** The job's stored exports, each with a signed download path valid for a quarter of an hour. */
export async function listExports(
  db: Database,
  storage: Storage,
  claims: JwtClaims,
  jobId: string,
): Promise<ExportListing> {
  requireUuid(jobId, 'the job id');
  const { rows } = await db.queryAsRole<{
    status: ExportListing['status'];
    error: string | null;
    audio_seconds: string | null;
    files: Array<{ name: string; format: ExportFormat; bytes: number }>;
  }>(
    claims,
    'select status, error, audio_seconds, files from public.adapt_exports where job_id = $1',
    [jobId],
  );
  const run = rows[0];
  if (!run) return { status: 'none', error: null, audioSeconds: null, files: [] };
  const files = await Promise.all(
    run.files.map(async (f) => ({
      ...f,
      url: `/storage/v1${await storage.createSignedUrl(EXPORTS_BUCKET, `${jobId}/${f.name}`, DOWNLOAD_LINK_SECONDS)}`,
    })),
  );
  return {
    status: run.status,
    error: run.error,
    audioSeconds: run.audio_seconds === null ? null : Number(run.audio_seconds),
    files,
  };
}

// ----- Publish ------------------------------------------------------------------------------

export async function publishJob(db: Database, claims: JwtClaims, jobId: string, courseId: string) {
  requireUuid(jobId, 'the job id');
  requireUuid(courseId, 'courseId');
  return db
    .asRole(claims, async (tx) => {
      const job = await loadApprovedLesson(tx, jobId);
      const lesson = job.lesson;
      const body = lessonMarkdown(lesson).replace(/^# .*\n+/, '');
      const minutes = lesson.sections.reduce((n, s) => n + s.minutes, 0);
      const { rows } = await tx.query<{
        id: string;
        lesson_id: string;
        course_id: string;
        questions: number;
      }>(
        'select id, lesson_id, course_id, questions from adapt.publish_lesson($1, $2, $3, $4, $5, $6::jsonb)',
        [jobId, courseId, lesson.title, body, minutes, JSON.stringify(bankQuestionsOf(lesson))],
      );
      return rows[0]!;
    })
    .catch((error: unknown) => {
      if (error instanceof OutputError) throw error;
      return fromDatabase(error);
    });
}

// ----- Webhooks -----------------------------------------------------------------------------

export interface EndpointInput {
  url: string;
  active: boolean;
  rotateSecret: boolean;
}

/** Saves the organization's endpoint (Admins only, by row-level security); checks the target first. */
export async function saveWebhookEndpoint(
  db: Database,
  claims: JwtClaims,
  organizationId: string,
  input: EndpointInput,
  allowed: readonly string[],
) {
  requireUuid(organizationId, 'the organization id');
  try {
    await checkWebhookTarget(input.url, { allowed });
  } catch (error) {
    if (error instanceof WebhookTargetRefused)
      throw new OutputError(400, 'target_refused', error.message);
    throw error;
  }
  const { rows } = await db
    .queryAsRole<{ organization_id: string; url: string; active: boolean; secret: string }>(
      claims,
      `insert into public.adapt_webhook_endpoints (organization_id, url, active, secret)
       values ($1, $2, $3, $4)
       on conflict (organization_id) do update
         set url = excluded.url, active = excluded.active, updated_by = auth.uid(), updated_at = now(),
             secret = case when $5 then excluded.secret else public.adapt_webhook_endpoints.secret end
       returning organization_id, url, active, secret`,
      [organizationId, input.url, input.active, newWebhookSecret(), input.rotateSecret],
    )
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === '42501') {
        throw new OutputError(403, 'forbidden', "Only the organization's Admins set its webhook");
      }
      return fromDatabase(error);
    });
  return rows[0]!;
}

/** The payload a learning system receives: the lesson's identity and links to its packages. */
export async function requestWebhookDelivery(
  deps: {
    db: Database;
    storage: Storage;
    jobs: { send(name: string, data?: object): Promise<string> };
  },
  claims: JwtClaims,
  jobId: string,
  siteUrl: string,
) {
  requireUuid(jobId, 'the job id');
  const listing = await listExports(deps.db, deps.storage, claims, jobId);
  if (listing.status !== 'done') {
    throw new OutputError(
      409,
      'not_ready',
      'Prepare the exports first: the webhook sends links to them',
    );
  }
  const job = await deps.db.asRole(claims, (tx) => loadApprovedLesson(tx, jobId));
  const links: Record<string, string> = {};
  for (const file of listing.files) {
    const path = await deps.storage.createSignedUrl(
      EXPORTS_BUCKET,
      `${jobId}/${file.name}`,
      PACKAGE_LINK_SECONDS,
    );
    links[file.format] = `${siteUrl}/storage/v1${path}`;
  }
  const payload = {
    event: 'lesson.exported',
    job: { id: job.id, title: job.lesson.title },
    lesson: {
      title: job.lesson.title,
      language: job.lesson.language,
      profile: job.lesson.profile,
      readingGrade: job.lesson.readingLevel.after.grade,
      estimatedMinutes: job.lesson.sections.reduce((n, s) => n + s.minutes, 0),
    },
    package: {
      scorm12: links['scorm-1.2'],
      scorm2004: links['scorm-2004'],
      scormJson: links['scorm-json'],
    },
    files: links,
    linksExpireAt: new Date(Date.now() + PACKAGE_LINK_SECONDS * 1000).toISOString(),
  };
  const { rows } = await deps.db
    .queryAsRole<{ id: string; status: string }>(
      claims,
      'select id, status from adapt.request_delivery($1, $2::jsonb)',
      [jobId, JSON.stringify(payload)],
    )
    .catch(fromDatabase);
  const delivery = rows[0]!;
  await deps.jobs.send(WEBHOOK_JOB, { deliveryId: delivery.id });
  return delivery;
}

/**
 * The delivery job: one attempt, logged. A retryable failure throws while attempts remain, so
 * the queue tries again after its exponential back-off; the last one marks the delivery failed.
 */
export async function runWebhookDelivery(
  deps: { db: Database; log: Logger; config: Pick<Config, 'adaptWebhooks'> },
  deliveryId: string,
): Promise<void> {
  const { rows } = await deps.db.query<{
    id: string;
    event: string;
    url: string;
    payload: unknown;
    status: string;
    attempts: number;
    secret: string | null;
  }>(
    `select d.id, d.event, d.url, d.payload, d.status, d.attempts, e.secret
       from public.adapt_webhook_deliveries d
       left join public.adapt_webhook_endpoints e on e.organization_id = d.organization_id
      where d.id = $1`,
    [deliveryId],
  );
  const delivery = rows[0];
  if (!delivery || !['pending', 'retrying'].includes(delivery.status)) return;
  const attempt = delivery.attempts + 1;
  const started = performance.now();
  const outcome = delivery.secret
    ? await attemptWebhook(
        {
          deliveryId: delivery.id,
          event: delivery.event,
          url: delivery.url,
          secret: delivery.secret,
          body: JSON.stringify(delivery.payload),
        },
        {
          allowed: deps.config.adaptWebhooks.allowedTargets,
          timeoutMs: deps.config.adaptWebhooks.timeoutMs,
        },
      )
    : ({ kind: 'failed', responseCode: null, error: 'The endpoint was removed.' } as const);
  const durationMs = Math.round(performance.now() - started);
  const responseCode = 'responseCode' in outcome ? outcome.responseCode : null;
  const error = 'error' in outcome ? outcome.error : null;
  const finalStatus =
    outcome.kind === 'delivered'
      ? 'delivered'
      : outcome.kind === 'retry' && attempt < WEBHOOK_ATTEMPTS
        ? 'retrying'
        : outcome.kind === 'refused'
          ? 'refused'
          : 'failed';
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `insert into public.adapt_webhook_attempts (delivery_id, attempt, response_code, error, duration_ms)
       values ($1, $2, $3, $4, $5)`,
      [delivery.id, attempt, responseCode, error, durationMs],
    );
    await tx.query(
      `update public.adapt_webhook_deliveries
          set attempts = $2, status = $3, response_code = $4, error = $5, updated_at = now(),
              delivered_at = case when $3 = 'delivered' then now() else null end
        where id = $1`,
      [delivery.id, attempt, finalStatus, responseCode, error],
    );
  });
  deps.log.info('adapt webhook attempt', {
    delivery: delivery.id,
    attempt,
    status: finalStatus,
    responseCode,
  });
  if (finalStatus === 'retrying') throw new Error(error ?? 'The delivery will be retried');
}
