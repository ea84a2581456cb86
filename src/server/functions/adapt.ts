/**
 * /functions/v1/adapt (issue 14, decision 0501): LE Adapt's writes. Reads go through REST
 * (`adapt_jobs`, `adapt_job_stages`, `adapt_section_reviews`) under row-level security.
 *
 *   POST /jobs                      multipart: file + options, or JSON: { prompt, ...options }
 *   POST /jobs/:id/retry            the first failed or cancelled stage and those after it
 *   POST /jobs/:id/cancel           stops before the next stage
 *   PUT  /jobs/:id/sections/:sid    { state: "accepted" } or { state: "edited", heading, body }
 *   POST /jobs/:id/approve          { note? }: a Reviewer's or Admin's approval
 *   PUT  /jobs/:id/quiz             { version, questions }: the quiz builder's whole quiz
 *   POST /jobs/:id/quiz/reset       { version }: back to the generated quiz
 *   POST /jobs/:id/quiz/preview     { question, answer }: how the answer would be graded
 *
 * Answers the job (or the review) as JSON, or { error, code } with 400/403/404/409. A file the
 * pipeline cannot read is not refused here: the job is created and its first stage fails with
 * the reason, so the educator sees it where they follow the job.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  AdaptError,
  approveAdaptJob,
  cancelAdaptJob,
  createAdaptJob,
  retryAdaptJob,
  reviewAdaptSection,
  type JobOptions,
  type JobSource,
} from '../adapt/adapt-jobs';
import { INGEST_LIMITS } from '../adapt/ingest/ingest-error';
import { previewGrade, resetQuiz, saveQuiz } from '../adapt/quiz-builder';
import {
  asSentence,
  quizPreviewSchema,
  quizProblemMessages,
  quizResetSchema,
  quizSaveSchema,
} from '../../common/adapt-quiz';
import { createAiProvider } from '../ai/provider';
import { announceApproval } from '../adapt/outputs';
import { LEARNER_PROFILES } from '../adapt/lesson';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

const uuid = z.string().uuid();

const optionsSchema = z.object({
  organizationId: z.preprocess((v) => (v === '' ? null : v), uuid.nullable().default(null)),
  title: z.preprocess(
    (v) => (v === '' ? null : v),
    z.string().trim().max(300).nullable().default(null),
  ),
  readingLevel: z.coerce.number().int().min(3).max(14).default(8),
  learnerProfile: z.enum(LEARNER_PROFILES).default('none'),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'a language tag such as "en" or "es"')
    .default('en'),
});

const promptSchema = optionsSchema.extend({
  prompt: z.string().trim().min(10, 'at least 10 characters').max(4000),
  courseId: z.preprocess((v) => (v === '' ? null : v), uuid.nullable().default(null)),
});

const reviewSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('accepted') }),
  z.object({
    state: z.literal('edited'),
    heading: z.string().trim().min(1).max(300),
    body: z.string().min(1).max(200_000),
  }),
]);

const approveSchema = z.object({ note: z.string().max(2000).nullable().optional() });

function describeZod(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

/**
 * A quiz body checked by its schema; every problem is one sentence naming the question, so the
 * reviewer reads what to change ("Question 2: choose which option is correct.").
 */
async function quizBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new AdaptError(400, 'invalid_quiz', 'Send the quiz as JSON.');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new AdaptError(
      400,
      'invalid_quiz',
      quizProblemMessages(parsed.error).map(asSentence).join(' '),
    );
  }
  return parsed.data;
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const ai = createAiProvider(deps.config.ai);
  app.onError((error, c) => {
    if (error instanceof AdaptError) {
      return c.json({ error: error.message, code: error.code }, error.status);
    }
    throw error;
  });
  app.use('*', async (c, next) => {
    if (c.get('claims').role !== 'authenticated') {
      return c.json({ error: 'Sign in to use LE Adapt.', code: 'not_signed_in' }, 401);
    }
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.post('/jobs', async (c) => {
    const type = c.req.header('content-type') ?? '';
    let options: JobOptions;
    let source: JobSource;
    if (type.startsWith('multipart/form-data')) {
      let form: Record<string, string | File>;
      try {
        form = (await c.req.parseBody()) as Record<string, string | File>;
      } catch {
        throw new AdaptError(400, 'invalid_input', 'The upload is not a readable form.');
      }
      const { file, prompt, courseId, ...fields } = form;
      if (typeof prompt === 'string' && prompt.trim() !== '' && !(file instanceof File)) {
        const parsed = promptSchema.safeParse({ ...fields, prompt, courseId });
        if (!parsed.success) throw new AdaptError(400, 'invalid_input', describeZod(parsed.error));
        const { prompt: text, courseId: course, ...rest } = parsed.data;
        options = rest;
        source = { kind: 'prompt', prompt: text, courseId: course };
      } else {
        if (!(file instanceof File)) {
          throw new AdaptError(400, 'invalid_input', 'Attach a file, or type a course prompt.');
        }
        const parsed = optionsSchema.safeParse(fields);
        if (!parsed.success) throw new AdaptError(400, 'invalid_input', describeZod(parsed.error));
        options = parsed.data;
        source = { kind: 'file', name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
      }
    } else {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        throw new AdaptError(
          400,
          'invalid_input',
          'Send a multipart upload, or JSON with a prompt.',
        );
      }
      const parsed = promptSchema.safeParse(body);
      if (!parsed.success) throw new AdaptError(400, 'invalid_input', describeZod(parsed.error));
      const { prompt, courseId, ...rest } = parsed.data;
      options = rest;
      source = { kind: 'prompt', prompt, courseId };
    }
    const job = await createAdaptJob(deps, c.get('claims'), options, source);
    return c.json(job, 201);
  });

  const jobId = (id: string) => {
    if (!uuid.safeParse(id).success) throw new AdaptError(404, 'not_found', 'There is no such job');
    return id;
  };

  app.post('/jobs/:id/retry', async (c) =>
    c.json(await retryAdaptJob(deps, c.get('claims'), jobId(c.req.param('id')))),
  );
  app.post('/jobs/:id/cancel', async (c) =>
    c.json(await cancelAdaptJob(deps, c.get('claims'), jobId(c.req.param('id')))),
  );
  app.put('/jobs/:id/sections/:section', functionJson(reviewSchema), async (c) =>
    c.json(
      await reviewAdaptSection(
        deps,
        c.get('claims'),
        jobId(c.req.param('id')),
        c.req.param('section').slice(0, 200),
        c.req.valid('json'),
      ),
    ),
  );
  app.post('/jobs/:id/approve', functionJson(approveSchema), async (c) => {
    const claims = c.get('claims');
    const id = jobId(c.req.param('id'));
    const approved = await approveAdaptJob(deps, claims, id, c.req.valid('json').note ?? null);
    await announceApproval(deps, id, claims.sub!);
    return c.json(approved);
  });
  app.put('/jobs/:id/quiz', async (c) => {
    const id = jobId(c.req.param('id'));
    const { version, questions } = await quizBody(c.req.raw, quizSaveSchema);
    return c.json(await saveQuiz(deps.db, c.get('claims'), id, version, questions));
  });
  app.post('/jobs/:id/quiz/reset', async (c) => {
    const id = jobId(c.req.param('id'));
    const { version } = await quizBody(c.req.raw, quizResetSchema);
    await resetQuiz(deps.db, c.get('claims'), id, version);
    return c.json({ reset: true });
  });
  app.post('/jobs/:id/quiz/preview', async (c) => {
    const id = jobId(c.req.param('id'));
    const { question, answer } = await quizBody(c.req.raw, quizPreviewSchema);
    return c.json(await previewGrade({ db: deps.db, ai }, c.get('claims'), id, question, answer));
  });
  return app;
}

export const adaptFunction: EdgeFunctionDefinition = {
  name: 'adapt',
  timeoutMs: 60_000,
  // A file somewhat over the limit still makes a job that says it is too large; a body far
  // over it is refused with 413 by the router before it is read whole.
  maxBodyBytes: INGEST_LIMITS.maxFileBytes + 16 * 1024 * 1024,
  create: createApp,
};
