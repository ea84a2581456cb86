/**
 * LE Adapt's outputs at the edge of the domain: an approved job's lesson (stage 4's output with
 * the reviewer's section edits and edited quiz applied) rendered into every export format and stored, published
 * into a course, or delivered to the organization's webhook. Reads and requests run as the
 * caller, so row-level security and the adapt procedures decide who may; the jobs that do the
 * work run as the platform.
 */
import {
  type ExportFormat,
  type ExportListing,
  type LessonApprovedPayload,
  type ListedExport,
  type WebhookEvent,
  type WebhookLessonSummary,
} from '../../common/adapt-outputs';
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
import { lessonAudio, type NarrationSettings } from './export/audio';
import { lessonHtml } from './export/html';
import { lessonMarkdown } from './export/markdown';
import { scormJson } from './export/scorm-json';
import { scormPackage } from './export/scorm-package';
import type { AccessibleLesson, QuizQuestion, ReviewedLesson } from './lesson';
import { bankQuestionsOf } from './publish/bank-questions';
import { withEditedQuiz } from './quiz-builder';
import { attemptWebhook } from './webhooks/deliver';
import { newWebhookSecret } from './webhooks/signature';
import { WebhookTargetRefused, checkWebhookTarget } from '../net/target-guard';

export const EXPORTS_BUCKET = 'adapt-exports';
export const EXPORT_JOB = 'adapt-exports';
export const WEBHOOK_JOB = 'adapt-webhook-delivery';
/** Attempts of one delivery: the first and the queue's retries (registry.ts). */
export const WEBHOOK_ATTEMPTS = 5;
/** How long the package link in a webhook payload works. */
const PACKAGE_LINK_SECONDS = 7 * 24 * 3600;
const DOWNLOAD_LINK_SECONDS = 15 * 60;

type JobSender = { send(name: string, data?: object): Promise<string> };

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
  const quiz = await q.query<{ questions: QuizQuestion[] }>(
    'select questions from public.adapt_quiz_reviews where job_id = $1',
    [jobId],
  );
  return {
    id: job.id,
    title: job.title,
    organizationId: job.organization_id,
    lesson: withEditedQuiz(
      applySectionReviews(job.output.lesson, reviews.rows),
      quiz.rows[0]?.questions,
    ),
  };
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

function requireUuid(value: string, what: string): void {
  if (!isUuid(value)) throw new OutputError(400, 'invalid', `${what} must be a UUID`);
}

// ----- Exports ------------------------------------------------------------------------------

export interface ExportFile {
  name: string;
  format: ExportFormat;
  contentType: string;
  bytes: Uint8Array;
  /** The MP3's narrating voice. */
  voice?: string;
}

/** A format that could not be made, and why; the other formats are still stored. */
export interface ExportFailure {
  name: string;
  format: ExportFormat;
  error: string;
}

/** Every export of a lesson; the MP3 and its timings are made once and shared. */
export async function buildExports(
  lesson: AccessibleLesson,
  jobId: string,
  options: { narrate?: typeof lessonAudio; narration?: NarrationSettings } = {},
): Promise<{ files: ExportFile[]; failures: ExportFailure[]; audioSeconds: number | null }> {
  const files: ExportFile[] = [];
  const failures: ExportFailure[] = [];
  const encode = (text: string) => new TextEncoder().encode(text);
  const make = (
    name: string,
    format: ExportFormat,
    contentType: string,
    render: () => Uint8Array,
  ) => {
    try {
      files.push({ name, format, contentType, bytes: render() });
    } catch (error) {
      failures.push({ name, format, error: exportFailureMessage(format, error) });
    }
  };
  const wordsPerMinute = lesson.profile === 'dyslexia' || lesson.profile === 'ell' ? 140 : 160;
  // Without narration the HTML still reads along with the browser's own speech, and the SCORM
  // packages simply carry no MP3.
  let audio: Awaited<ReturnType<typeof lessonAudio>> | null = null;
  try {
    audio = await (options.narrate ?? lessonAudio)(lesson, {
      wordsPerMinute,
      narration: options.narration,
    });
  } catch (error) {
    failures.push({ name: 'lesson.mp3', format: 'mp3', error: exportFailureMessage('mp3', error) });
  }
  make('lesson.md', 'markdown', 'text/markdown; charset=utf-8', () =>
    encode(lessonMarkdown(lesson)),
  );
  make('lesson.html', 'html', 'text/html; charset=utf-8', () =>
    encode(
      lessonHtml(lesson, {
        audio: audio ? { src: 'lesson.mp3', sentences: audio.sentences } : null,
      }),
    ),
  );
  if (lesson.translation) {
    make(
      `lesson.${lesson.translation.language}.html`,
      'html-translation',
      'text/html; charset=utf-8',
      () => encode(lessonHtml(lesson, { useTranslation: true })),
    );
  }
  if (audio)
    files.push({
      name: 'lesson.mp3',
      format: 'mp3',
      contentType: 'audio/mpeg',
      bytes: audio.mp3,
      voice: audio.voice,
    });
  make('scorm-1.2.zip', 'scorm-1.2', 'application/zip', () =>
    scormPackage(lesson, { version: '1.2', identifier: jobId, audio }),
  );
  make('scorm-2004.zip', 'scorm-2004', 'application/zip', () =>
    scormPackage(lesson, { version: '2004', identifier: jobId, audio }),
  );
  make('scorm.json', 'scorm-json', 'application/json', () =>
    encode(
      JSON.stringify(
        scormJson(lesson, {
          identifier: jobId,
          audio: audio
            ? {
                href: 'lesson.mp3',
                durationSeconds: audio.durationSeconds,
                sentences: audio.sentences,
              }
            : null,
        }),
        null,
        2,
      ),
    ),
  );
  return { files, failures, audioSeconds: audio ? audio.durationSeconds : null };
}

const FORMAT_NAMES: Record<ExportFormat, string> = {
  markdown: 'Markdown',
  html: 'accessible HTML',
  'html-translation': 'translated HTML',
  mp3: 'MP3 narration',
  'scorm-1.2': 'SCORM 1.2 package',
  'scorm-2004': 'SCORM 2004 package',
  'scorm-json': 'SCORM JSON',
};

function exportFailureMessage(format: ExportFormat, error: unknown): string {
  const reason = error instanceof Error && error.message ? error.message : String(error);
  return `The ${FORMAT_NAMES[format]} could not be made: ${reason}`.slice(0, 500);
}

/** The exports job: renders and stores every file of an approved job. */
export async function runExportJob(
  deps: {
    db: Database;
    storage: Storage;
    log: Logger;
    jobs?: JobSender;
    siteUrl?: string;
    narration?: NarrationSettings;
  },
  jobId: string,
  options: { narrate?: typeof lessonAudio } = {},
): Promise<void> {
  await deps.db.query(`update public.adapt_exports set status = 'running' where job_id = $1`, [
    jobId,
  ]);
  let requestedBy: string | null = null;
  try {
    const job = await loadApprovedLesson(deps.db, jobId);
    await deps.storage.ensureBucket(EXPORTS_BUCKET, { fileSizeLimit: 200 * 1024 * 1024 });
    const { files, failures, audioSeconds } = await buildExports(job.lesson, jobId, {
      ...options,
      narration: { ...(deps.narration ?? { voice: 'flite' }), log: deps.log },
    });
    if (files.length === 0) throw new Error(failures.map((f) => f.error).join(' '));
    for (const file of files) {
      await deps.storage.putObject(
        EXPORTS_BUCKET,
        `${jobId}/${file.name}`,
        file.bytes,
        file.contentType,
        { upsert: true },
      );
    }
    const listed = [
      ...files.map((f) => ({
        name: f.name,
        format: f.format,
        contentType: f.contentType,
        bytes: f.bytes.length,
        ...(f.voice ? { voice: f.voice } : {}),
      })),
      ...failures.map((f) => ({ name: f.name, format: f.format, error: f.error })),
    ];
    const { rows } = await deps.db.query<{ requested_by: string | null }>(
      `update public.adapt_exports
          set status = 'done', files = $2::jsonb, audio_seconds = $3, error = null, finished_at = now()
        where job_id = $1
        returning requested_by`,
      [jobId, JSON.stringify(listed), audioSeconds],
    );
    requestedBy = rows[0]?.requested_by ?? null;
    deps.log.info('adapt exports stored', {
      job: jobId,
      files: files.length,
      failed: failures.length,
    });
  } catch (error) {
    await deps.db.query(
      `update public.adapt_exports set status = 'failed', error = $2, finished_at = now() where job_id = $1`,
      [jobId, ((error as Error).message || 'The export failed').slice(0, 2000)],
    );
    throw error;
  }
  if (deps.jobs && deps.siteUrl) {
    const payload = await exportedPayload(deps.db, deps.storage, jobId, deps.siteUrl);
    await queueWebhookEvent(
      { db: deps.db, jobs: deps.jobs },
      jobId,
      'lesson.exported',
      payload,
      requestedBy,
    );
  }
}

export async function requestExports(
  db: Database,
  claims: JwtClaims,
  jobs: JobSender,
  jobId: string,
  siteUrl: string,
) {
  requireUuid(jobId, 'the job id');
  const { rows } = await db
    .queryAsRole<{ job_id: string; status: string }>(
      claims,
      'select job_id, status from adapt.request_exports($1)',
      [jobId],
    )
    .catch(fromDatabase);
  await jobs.send(EXPORT_JOB, { jobId, siteUrl });
  return rows[0]!;
}

type StoredExport =
  | { name: string; format: ExportFormat; bytes: number; voice?: string; error?: undefined }
  | { name: string; format: ExportFormat; error: string };

function narrationVoice(files: StoredExport[]): string | null {
  for (const f of files) if (f.format === 'mp3' && f.error === undefined) return f.voice ?? null;
  return null;
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
    finished_at: string | null;
    files: StoredExport[];
  }>(
    claims,
    'select status, error, audio_seconds, finished_at, files from public.adapt_exports where job_id = $1',
    [jobId],
  );
  const run = rows[0];
  if (!run) {
    return {
      status: 'none',
      error: null,
      audioSeconds: null,
      narrationVoice: null,
      finishedAt: null,
      files: [],
    };
  }
  const files = await Promise.all(
    run.files.map(async (f): Promise<ListedExport> => {
      if (f.error !== undefined) {
        return { name: f.name, format: f.format, bytes: null, url: null, error: f.error };
      }
      const path = await storage.createSignedUrl(
        EXPORTS_BUCKET,
        `${jobId}/${f.name}`,
        DOWNLOAD_LINK_SECONDS,
      );
      return {
        name: f.name,
        format: f.format,
        bytes: f.bytes,
        url: `/storage/v1${path}`,
        error: null,
      };
    }),
  );
  return {
    status: run.status,
    error: run.error,
    audioSeconds: run.audio_seconds === null ? null : Number(run.audio_seconds),
    narrationVoice: narrationVoice(run.files),
    finishedAt: run.finished_at,
    files,
  };
}

// ----- Publish ------------------------------------------------------------------------------

export async function publishJob(
  deps: { db: Database; jobs: JobSender },
  claims: JwtClaims,
  jobId: string,
  courseId: string,
) {
  requireUuid(jobId, 'the job id');
  requireUuid(courseId, 'courseId');
  const publication = await deps.db
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
      return { ...rows[0]!, title: lesson.title };
    })
    .catch((error: unknown) => {
      if (error instanceof OutputError) throw error;
      return fromDatabase(error);
    });
  const { title, ...published } = publication;
  await queueWebhookEvent(
    deps,
    jobId,
    'lesson.published',
    {
      event: 'lesson.published',
      job: { id: jobId, title },
      course: { id: published.course_id },
      lesson: { id: published.lesson_id, title },
      questions: published.questions,
    },
    claims.sub ?? null,
  );
  return published;
}

// ----- Webhooks -----------------------------------------------------------------------------

/** The queue's first retry delay; each later one doubles (pg-boss adds up to as much at random). */
export const WEBHOOK_RETRY_DELAY_SECONDS = 30;

export interface EndpointInput {
  url: string;
  active: boolean;
  events: WebhookEvent[];
  rotateSecret: boolean;
}

export interface SavedEndpoint {
  organization_id: string;
  url: string;
  active: boolean;
  events: WebhookEvent[];
  /** Only when the secret was made now (a new endpoint, or rotated): it is never shown again. */
  secret: string | null;
}

function forbiddenFor(message: string) {
  return (error: unknown): never => {
    if ((error as { code?: string }).code === '42501') {
      throw new OutputError(403, 'forbidden', message);
    }
    if (error instanceof OutputError) throw error;
    return fromDatabase(error);
  };
}

/** Saves the organization's endpoint (Admins only, by row-level security); checks the target first. */
export async function saveWebhookEndpoint(
  db: Database,
  claims: JwtClaims,
  organizationId: string,
  input: EndpointInput,
  allowed: readonly string[],
): Promise<SavedEndpoint> {
  requireUuid(organizationId, 'the organization id');
  try {
    await checkWebhookTarget(input.url, { allowed });
  } catch (error) {
    if (error instanceof WebhookTargetRefused)
      throw new OutputError(400, 'target_refused', error.message);
    throw error;
  }
  // A secret is made only for a new endpoint or a rotation, and shown only then.
  const { rows: existing } = await db
    .queryAsRole<{ organization_id: string }>(
      claims,
      'select organization_id from public.adapt_webhook_endpoints where organization_id = $1',
      [organizationId],
    )
    .catch(fromDatabase);
  const secret = existing.length === 0 || input.rotateSecret ? newWebhookSecret() : null;
  const { rows } = await db
    .queryAsRole<Omit<SavedEndpoint, 'secret'> & { created: boolean }>(
      claims,
      'select * from adapt.save_endpoint($1, $2, $3, $4::text[], $5)',
      [organizationId, input.url, input.active, input.events, secret],
    )
    .catch(forbiddenFor("Only the organization's Admins set its webhook"));
  const { created: _created, ...saved } = rows[0]!;
  return { ...saved, secret };
}

export async function deleteWebhookEndpoint(
  db: Database,
  claims: JwtClaims,
  organizationId: string,
): Promise<void> {
  requireUuid(organizationId, 'the organization id');
  await db
    .queryAsRole(claims, 'select adapt.delete_endpoint($1)', [organizationId])
    .catch(forbiddenFor("Only the organization's Admins delete its webhook"));
}

/** A test delivery to the organization's endpoint; its one attempt goes through the SSRF guard. */
export async function sendWebhookTest(
  deps: { db: Database; jobs: JobSender },
  claims: JwtClaims,
  organizationId: string,
) {
  requireUuid(organizationId, 'the organization id');
  const { rows } = await deps.db
    .queryAsRole<{ id: string; status: string }>(
      claims,
      'select id, status from adapt.send_test($1)',
      [organizationId],
    )
    .catch(forbiddenFor("Only the organization's Admins test its webhook"));
  await deps.jobs.send(WEBHOOK_JOB, { deliveryId: rows[0]!.id });
  return rows[0]!;
}

/** The links of a job's stored exports, signed for a week, as a learning system receives them. */
async function exportLinks(
  db: Queryable,
  storage: Storage,
  jobId: string,
  siteUrl: string,
): Promise<Record<string, string>> {
  const { rows } = await db.query<{ files: StoredExport[] }>(
    `select files from public.adapt_exports where job_id = $1 and status = 'done'`,
    [jobId],
  );
  const links: Record<string, string> = {};
  for (const file of rows[0]?.files ?? []) {
    if (file.error !== undefined) continue;
    const path = await storage.createSignedUrl(
      EXPORTS_BUCKET,
      `${jobId}/${file.name}`,
      PACKAGE_LINK_SECONDS,
    );
    links[file.format] = `${siteUrl}/storage/v1${path}`;
  }
  return links;
}

function withLinks(payload: Record<string, unknown>, links: Record<string, string>) {
  return {
    ...payload,
    package: {
      scorm12: links['scorm-1.2'] ?? null,
      scorm2004: links['scorm-2004'] ?? null,
      scormJson: links['scorm-json'] ?? null,
    },
    files: links,
    linksExpireAt: new Date(Date.now() + PACKAGE_LINK_SECONDS * 1000).toISOString(),
  };
}

function lessonSummary(job: ApprovedJob): WebhookLessonSummary {
  return {
    job: { id: job.id, title: job.lesson.title },
    lesson: {
      title: job.lesson.title,
      language: job.lesson.language,
      profile: job.lesson.profile,
      readingGrade: job.lesson.readingLevel.after.grade,
      estimatedMinutes: job.lesson.sections.reduce((n, s) => n + s.minutes, 0),
    },
  };
}

/** The lesson.exported payload: the lesson's identity and links to its packages. */
async function exportedPayload(db: Database, storage: Storage, jobId: string, siteUrl: string) {
  const job = await loadApprovedLesson(db, jobId);
  return withLinks(
    { event: 'lesson.exported', ...lessonSummary(job) },
    await exportLinks(db, storage, jobId, siteUrl),
  );
}

/**
 * Queues an event of a job for its organization's endpoint when the endpoint is active and takes
 * that event (adapt.queue_event, as the platform: the caller's own action already succeeded).
 */
export async function queueWebhookEvent(
  deps: { db: Database; jobs: JobSender },
  jobId: string,
  event: WebhookEvent,
  payload: object,
  requestedBy: string | null,
): Promise<string | null> {
  const { rows } = await deps.db.query<{ id: string | null }>(
    'select (adapt.queue_event($1, $2, $3::jsonb, $4)).id',
    [jobId, event, JSON.stringify(payload), requestedBy],
  );
  const id = rows[0]?.id ?? null;
  if (id) await deps.jobs.send(WEBHOOK_JOB, { deliveryId: id });
  return id;
}

/** lesson.approved, after a Reviewer's approval. */
export async function announceApproval(
  deps: { db: Database; jobs: JobSender },
  jobId: string,
  approvedBy: string,
): Promise<void> {
  const job = await loadApprovedLesson(deps.db, jobId);
  const { rows } = await deps.db.query<{
    approved_at: Date | string;
    approval_note: string | null;
  }>('select approved_at, approval_note from public.adapt_jobs where id = $1', [jobId]);
  const payload: LessonApprovedPayload = {
    event: 'lesson.approved',
    ...lessonSummary(job),
    approval: {
      at: new Date(rows[0]!.approved_at).toISOString(),
      note: rows[0]!.approval_note,
    },
  };
  await queueWebhookEvent(deps, jobId, 'lesson.approved', payload, approvedBy);
}

/** Sends an approved job's package links to its organization's endpoint, by a person's choice. */
export async function requestWebhookDelivery(
  deps: { db: Database; storage: Storage; jobs: JobSender },
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
  const payload = withLinks(
    { event: 'lesson.exported', ...lessonSummary(job) },
    await exportLinks(deps.db, deps.storage, jobId, siteUrl),
  );
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

/** A logged delivery sent again as a new one; a package's links are signed afresh. */
export async function redeliverWebhook(
  deps: { db: Database; storage: Storage; jobs: JobSender },
  claims: JwtClaims,
  deliveryId: string,
  siteUrl: string,
) {
  requireUuid(deliveryId, 'the delivery id');
  const { rows } = await deps.db
    .queryAsRole<{
      id: string;
      status: string;
      event: string;
      job_id: string | null;
      payload: Record<string, unknown>;
    }>(claims, 'select id, status, event, job_id, payload from adapt.redeliver($1)', [deliveryId])
    .catch(forbiddenFor("Only the organization's Admins redeliver"));
  const delivery = rows[0]!;
  if (delivery.event === 'lesson.exported' && delivery.job_id) {
    const links = await exportLinks(deps.db, deps.storage, delivery.job_id, siteUrl);
    await deps.db.query(
      'update public.adapt_webhook_deliveries set payload = $2::jsonb where id = $1',
      [delivery.id, JSON.stringify(withLinks(delivery.payload, links))],
    );
  }
  await deps.jobs.send(WEBHOOK_JOB, { deliveryId: delivery.id });
  return { id: delivery.id, status: delivery.status };
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
  // A test is one attempt: the Admin is waiting for its answer.
  const attempts = delivery.event === 'webhook.test' ? 1 : WEBHOOK_ATTEMPTS;
  const finalStatus =
    outcome.kind === 'delivered'
      ? 'delivered'
      : outcome.kind === 'retry' && attempt < attempts
        ? 'retrying'
        : outcome.kind === 'refused'
          ? 'refused'
          : 'failed';
  const retryInSeconds = WEBHOOK_RETRY_DELAY_SECONDS * 2 ** (attempt - 1);
  await deps.db.transaction(async (tx) => {
    await tx.query(
      `insert into public.adapt_webhook_attempts (delivery_id, attempt, response_code, error, duration_ms)
       values ($1, $2, $3, $4, $5)`,
      [delivery.id, attempt, responseCode, error, durationMs],
    );
    await tx.query(
      `update public.adapt_webhook_deliveries
          set attempts = $2, status = $3, response_code = $4, error = $5, updated_at = now(),
              delivered_at = case when $3 = 'delivered' then now() else null end,
              next_attempt_at = case when $3 = 'retrying' then now() + make_interval(secs => $6::double precision) end
        where id = $1`,
      [delivery.id, attempt, finalStatus, responseCode, error, retryInSeconds],
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
