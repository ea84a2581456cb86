/**
 * One LE Adapt job, run by the `adapt-pipeline` queue job (decision 0501): the stages in order,
 * each from the stored output of the one before, each recorded on its row (running, done with
 * its output, engine and duration, or failed with the reason) in its own short transaction so
 * the screens see progress as it happens. A stage that throws fails the job, never the worker:
 * the error is written on the stage and the run ends normally. A cancel between stages stops
 * the run; a retry starts again at the first stage that is not done.
 */
import { performance } from 'node:perf_hooks';
import type { AiProvider, EngineInfo } from '../ai/provider';
import type { Database } from '../db/types';
import type { Logger } from '../logger';
import type { Storage } from '../storage/storage';
import { extractSource } from './ingest/extract-source';
import { IngestError, INGEST_LIMITS, megabytes } from './ingest/ingest-error';
import { makeAccessible } from './accessible/accessible-stage';
import {
  extractedPlainText,
  type AccessibleLesson,
  type ExtractedText,
  type StageName,
  type StageReport,
  type StructuredLesson,
} from './lesson';
import { reviewLesson } from './review/review-stage';
import { structureLesson } from './structure/structure-lesson';

export const ADAPT_SOURCES_BUCKET = 'adapt-sources';

/** A row of public.adapt_jobs (a type, not an interface, so it fits the driver's Row). */
export type AdaptJobRow = {
  id: string;
  owner_id: string;
  organization_id: string | null;
  title: string;
  source_format: 'pdf' | 'docx' | 'txt' | 'scorm' | 'prompt';
  source_name: string | null;
  source_path: string | null;
  source_bytes: number | null;
  prompt: string | null;
  course_id: string | null;
  reading_level: number;
  learner_profile: 'none' | 'adhd' | 'dyslexia' | 'ell';
  language: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
};

export interface PipelineDeps {
  db: Database;
  storage: Storage;
  ai: AiProvider;
  log: Logger;
}

/** The outputs of the stages done so far, by name. */
export interface StageOutputs {
  extract?: ExtractedText;
  structure?: StructuredLesson;
  accessible?: AccessibleLesson;
}

export interface StageResult {
  output: unknown;
  engine: EngineInfo;
  changes: string[];
}

export interface StageDefinition {
  name: StageName;
  run(deps: PipelineDeps, job: AdaptJobRow, outputs: StageOutputs): Promise<StageResult>;
}

function needs<K extends keyof StageOutputs>(outputs: StageOutputs, key: K) {
  const value = outputs[key];
  if (!value) throw new Error(`the ${key} stage's output is missing`);
  return value as NonNullable<StageOutputs[K]>;
}

export const PIPELINE: readonly StageDefinition[] = [
  {
    name: 'extract',
    async run(deps, job) {
      let bytes: Uint8Array | null = null;
      if (job.source_path) {
        const object = await deps.storage.getObject(ADAPT_SOURCES_BUCKET, job.source_path);
        bytes = object ? new Uint8Array(object.bytes) : null;
      } else if (job.source_format !== 'prompt') {
        // The upload was refused before it was stored (over the size limit).
        throw new IngestError(
          'too_large',
          `"${job.source_name}" is ${megabytes(job.source_bytes ?? 0)}; files of up to ${megabytes(INGEST_LIMITS.maxFileBytes)} can be adapted.`,
        );
      }
      const result = await extractSource(deps, {
        format: job.source_format,
        ownerId: job.owner_id,
        fileName: job.source_name,
        bytes,
        prompt: job.prompt,
        courseId: job.course_id,
      });
      return { output: result.extracted, engine: result.engine, changes: result.changes };
    },
  },
  {
    name: 'structure',
    async run(deps, job, outputs) {
      const result = await structureLesson(needs(outputs, 'extract'), {
        ai: deps.ai,
        title: job.title,
        language: job.language,
      });
      return { output: result.lesson, engine: result.engine, changes: result.changes };
    },
  },
  {
    name: 'accessible',
    async run(deps, job, outputs) {
      const result = await makeAccessible(
        needs(outputs, 'structure'),
        {
          profile: job.learner_profile,
          targetGrade: job.reading_level,
          translateTo: job.language === 'en' ? null : job.language,
        },
        { ai: deps.ai },
      );
      return {
        output: result.lesson,
        engine: result.report.engine,
        changes: result.report.changes,
      };
    },
  },
  {
    name: 'review',
    async run(_deps, _job, outputs) {
      const result = reviewLesson(needs(outputs, 'accessible'), needs(outputs, 'extract'));
      return {
        output: result.reviewed,
        engine: result.report.engine,
        changes: result.report.changes,
      };
    },
  },
];

export const PIPELINE_STAGE_NAMES: readonly StageName[] = PIPELINE.map((s) => s.name);

type StageRow = {
  stage: number;
  name: StageName;
  status: string;
  output: unknown;
};

function describeFailure(error: unknown): string {
  if (error instanceof IngestError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  return `The stage failed unexpectedly: ${message}`.slice(0, 2000);
}

/** Runs the job's open stages; resolves when it is done, failed or cancelled. */
export async function runAdaptJob(deps: PipelineDeps, jobId: string): Promise<void> {
  const { db, log } = deps;
  const found = await db.query<AdaptJobRow>('select * from public.adapt_jobs where id = $1', [
    jobId,
  ]);
  const job = found.rows[0];
  if (!job || job.status === 'cancelled' || job.status === 'done') return;
  await db.query(
    `update public.adapt_jobs set status = 'running', updated_at = now()
      where id = $1 and status in ('queued', 'running', 'failed')`,
    [jobId],
  );
  const { rows: stages } = await db.query<StageRow>(
    'select stage, name, status, output from public.adapt_job_stages where job_id = $1 order by stage',
    [jobId],
  );
  const outputs: StageOutputs = {};
  for (const row of stages) {
    if (row.status === 'done') {
      (outputs as Record<string, unknown>)[row.name] = row.output;
      continue;
    }
    const definition = PIPELINE.find((s) => s.name === row.name);
    if (!definition) {
      await failStage(db, jobId, row.stage, `This server does not run the ${row.name} stage.`);
      return;
    }
    const claimed = await db.query(
      `update public.adapt_job_stages
          set status = 'running', attempts = attempts + 1, started_at = now(), finished_at = null,
              error = null
        where job_id = $1 and stage = $2
          and exists (select 1 from public.adapt_jobs j where j.id = $1 and j.status = 'running')`,
      [jobId, row.stage],
    );
    if (claimed.rowCount === 0) return; // cancelled meanwhile
    const started = performance.now();
    let result: StageResult;
    try {
      result = await definition.run(deps, job, outputs);
    } catch (error) {
      if (!(error instanceof IngestError)) {
        log.warn('adapt stage failed', { job: jobId, stage: row.name, error: String(error) });
      }
      await failStage(db, jobId, row.stage, describeFailure(error), performance.now() - started);
      return;
    }
    const durationMs = Math.round(performance.now() - started);
    const report: StageReport = {
      stage: row.name,
      engine: result.engine,
      durationMs,
      changes: result.changes,
    };
    const saved = await db.transaction(async (tx) => {
      const updated = await tx.query(
        `update public.adapt_job_stages
            set status = 'done', finished_at = now(), duration_ms = $3, engine = $4, model = $5,
                output = $6::jsonb, report = $7::jsonb
          where job_id = $1 and stage = $2 and status = 'running'`,
        [
          jobId,
          row.stage,
          durationMs,
          result.engine.label,
          result.engine.model ?? null,
          JSON.stringify(result.output),
          JSON.stringify(report),
        ],
      );
      if (updated.rowCount === 0) return false;
      if (row.name === 'extract' || row.name === 'structure') {
        await indexForSearch(tx, jobId, row.name, result.output);
      }
      return true;
    });
    if (!saved) return; // cancelled while the stage ran: its output is not kept
    (outputs as Record<string, unknown>)[row.name] = result.output;
  }
  await db.query(
    `update public.adapt_jobs set status = 'done', updated_at = now()
      where id = $1 and status = 'running'`,
    [jobId],
  );
}

async function failStage(
  db: Database,
  jobId: string,
  stage: number,
  message: string,
  durationMs?: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `update public.adapt_job_stages
          set status = 'failed', error = $3, finished_at = now(), duration_ms = $4
        where job_id = $1 and stage = $2`,
      [jobId, stage, message, durationMs === undefined ? null : Math.round(durationMs)],
    );
    await tx.query(
      `update public.adapt_jobs set status = 'failed', updated_at = now()
        where id = $1 and status = 'running'`,
      [jobId],
    );
  });
}

/** The archive's search: title and file name first, then the text and the lesson's terms. */
async function indexForSearch(
  tx: { query: Database['query'] },
  jobId: string,
  stage: 'extract' | 'structure',
  output: unknown,
): Promise<void> {
  const body =
    stage === 'extract'
      ? extractedPlainText(output as ExtractedText)
      : (() => {
          const lesson = output as StructuredLesson;
          return [
            lesson.title,
            ...lesson.objectives.map((o) => o.text),
            ...lesson.glossary.map((g) => `${g.term}: ${g.definition}`),
            ...lesson.sections.map((s) => s.heading),
          ].join('\n');
        })();
  // Extracted text starts the vector afresh (a retried extraction replaces it); the lesson's
  // terms are added to it.
  await tx.query(
    stage === 'extract'
      ? `update public.adapt_jobs
            set search = setweight(to_tsvector('english', title || ' ' || coalesce(source_name, '')), 'A')
                      || setweight(to_tsvector('english', left($2, 300000)), 'C')
          where id = $1`
      : `update public.adapt_jobs
            set search = search || setweight(to_tsvector('english', left($2, 300000)), 'B')
          where id = $1`,
    [jobId, body],
  );
}
