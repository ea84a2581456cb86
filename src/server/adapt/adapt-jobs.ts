/**
 * What a person does to an LE Adapt job (decision 0501): create it from an upload or a prompt,
 * retry it, cancel it, review its sections and approve it. Each is a procedure of db/app/0800
 * called as the caller, so the role checks are the database's; this module stores the upload
 * under the job's own folder and enqueues the work.
 */
import type { Database, JwtClaims } from '../db/types';
import type { JobQueue } from '../jobs/job-queue';
import type { Storage } from '../storage/storage';
import { INGEST_LIMITS } from './ingest/ingest-error';
import type { LearnerProfile, SourceFormat } from './lesson';
import { ADAPT_SOURCES_BUCKET, PIPELINE_STAGE_NAMES, type AdaptJobRow } from './pipeline';

export const ADAPT_JOB = 'adapt-pipeline';

export class AdaptError extends Error {
  constructor(
    public readonly status: 400 | 403 | 404 | 409,
    public readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdaptError';
  }
}

export interface AdaptDeps {
  db: Database;
  storage: Storage;
  jobs: JobQueue;
}

export interface JobOptions {
  organizationId: string | null;
  title: string | null;
  readingLevel: number;
  learnerProfile: LearnerProfile;
  language: string;
}

export type JobSource =
  | { kind: 'file'; name: string; bytes: Uint8Array }
  | { kind: 'prompt'; prompt: string; courseId: string | null };

/** The database's refusals, as answers a client can act on. */
function fromDatabase(error: unknown): never {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '42501') throw new AdaptError(403, 'forbidden', message);
  if (code === 'P0002') throw new AdaptError(404, 'not_found', message);
  if (code === '55000') throw new AdaptError(409, 'conflict', message);
  if (code === '22023' || code === '23514' || code === '22P02')
    throw new AdaptError(400, 'invalid_input', message);
  throw error;
}

async function asCaller<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return fromDatabase(error);
  }
}

/** The format a file's name promises; the worker checks the content against it. */
function formatFromName(name: string): Exclude<SourceFormat, 'prompt'> {
  const lower = name.toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.docx')) return 'docx';
  if (lower.endsWith('.zip')) return 'scorm';
  if (/\.(txt|text|md)$/.test(lower)) return 'txt';
  throw new AdaptError(
    400,
    'unsupported',
    `"${name}" is not a file LE Adapt reads: upload a PDF, DOCX, TXT or a SCORM package (.zip).`,
  );
}

/** A file name safe to show and to keep: its last segment, control characters removed. */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const printable = [...base].filter((ch) => ch.charCodeAt(0) >= 0x20 && ch !== '\u007f');
  return printable.join('').slice(0, 255) || 'upload';
}

/**
 * Creates the job, stores the file under `<job id>/` (a file over the size limit is not stored:
 * the job fails at once with the reason) and enqueues the pipeline.
 */
export async function createAdaptJob(
  deps: AdaptDeps,
  claims: JwtClaims,
  options: JobOptions,
  source: JobSource,
): Promise<AdaptJobRow> {
  const name = source.kind === 'file' ? displayName(source.name) : null;
  const format = source.kind === 'file' ? formatFromName(name!) : 'prompt';
  const title =
    options.title?.trim() ||
    (name ? name.replace(/\.[^.]+$/, '') : (source as { prompt: string }).prompt.slice(0, 120)) ||
    'Untitled';
  const job = await asCaller(async () => {
    const { rows } = await deps.db.queryAsRole<AdaptJobRow>(
      claims,
      `select * from adapt.create_job($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        options.organizationId,
        title.slice(0, 300),
        format,
        name,
        source.kind === 'file' ? source.bytes.byteLength : null,
        source.kind === 'prompt' ? source.prompt : null,
        source.kind === 'prompt' ? source.courseId : null,
        options.readingLevel,
        options.learnerProfile,
        options.language,
        PIPELINE_STAGE_NAMES,
      ],
    );
    return rows[0]!;
  });
  if (source.kind === 'file' && source.bytes.byteLength <= INGEST_LIMITS.maxFileBytes) {
    const extension = name!.includes('.') ? name!.slice(name!.lastIndexOf('.')).toLowerCase() : '';
    const path = `${job.id}/source${extension}`;
    await deps.storage.putObject(
      ADAPT_SOURCES_BUCKET,
      path,
      source.bytes,
      'application/octet-stream',
      { owner: job.owner_id },
    );
    await deps.db.query('update public.adapt_jobs set source_path = $2 where id = $1', [
      job.id,
      path,
    ]);
    job.source_path = path;
  }
  await deps.jobs.send(ADAPT_JOB, { jobId: job.id });
  return job;
}

export async function retryAdaptJob(
  deps: AdaptDeps,
  claims: JwtClaims,
  jobId: string,
): Promise<AdaptJobRow> {
  const job = await asCaller(async () => {
    const { rows } = await deps.db.queryAsRole<AdaptJobRow>(
      claims,
      'select * from adapt.retry_job($1)',
      [jobId],
    );
    return rows[0]!;
  });
  await deps.jobs.send(ADAPT_JOB, { jobId: job.id });
  return job;
}

export async function cancelAdaptJob(
  deps: AdaptDeps,
  claims: JwtClaims,
  jobId: string,
): Promise<AdaptJobRow> {
  return asCaller(async () => {
    const { rows } = await deps.db.queryAsRole<AdaptJobRow>(
      claims,
      'select * from adapt.cancel_job($1)',
      [jobId],
    );
    return rows[0]!;
  });
}

export async function approveAdaptJob(
  deps: AdaptDeps,
  claims: JwtClaims,
  jobId: string,
  note: string | null,
): Promise<AdaptJobRow> {
  return asCaller(async () => {
    const { rows } = await deps.db.queryAsRole<AdaptJobRow>(
      claims,
      'select * from adapt.approve_job($1, $2)',
      [jobId, note],
    );
    return rows[0]!;
  });
}

export interface SectionReview {
  state: 'accepted' | 'edited';
  heading?: string;
  body?: string;
}

export async function reviewAdaptSection(
  deps: AdaptDeps,
  claims: JwtClaims,
  jobId: string,
  sectionId: string,
  review: SectionReview,
): Promise<Record<string, unknown>> {
  return asCaller(async () => {
    const { rows } = await deps.db.queryAsRole(
      claims,
      'select * from adapt.review_section($1, $2, $3, $4, $5)',
      [jobId, sectionId, review.state, review.heading ?? null, review.body ?? null],
    );
    return rows[0]!;
  });
}
