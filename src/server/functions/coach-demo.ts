/**
 * The public coach demo (decision 0224), no account needed:
 *
 *   GET  /functions/v1/coach-demo   → { sample: true, questions: [{ id, course, prompt }] }
 *   POST /functions/v1/coach-demo   { question_id, answer } → { verdict, missing, feedback, engine }
 *
 * Sample questions of the sample courses, the offline evaluator only, nothing read from or
 * written to the database. Each client address may check 20 answers at once and one more every
 * 30 seconds after that, per gateway process (429 with Retry-After beyond it). Answers get the coach's checks: empty,
 * over 8 KB or with control characters is a 400 that says so.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { COACH_TEXT_MAX_BYTES, coachText } from '../../common/coach';
import { OFFLINE_ENGINE } from '../ai/provider';
import { evaluateDemoAnswer, listDemoQuestions } from '../coach/demo';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import { clientAddress } from '../gateway/ops/client-address';
import { createRateLimiter } from '../gateway/ops/rate-limit';
import type { EdgeFunctionDefinition } from './types';

const demoRequestSchema = z.object({
  question_id: z.string({ error: 'question_id must name a sample question.' }).max(200),
  answer: coachText('answer'),
});

/** Answers a client address may have checked at once, and how fast that allowance refills. */
const DEMO_BURST = 20;
const DEMO_PER_SECOND = 1 / 30;

function createApp(_deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const limiter = createRateLimiter(DEMO_PER_SECOND, undefined, DEMO_BURST);

  app.get('/', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json({ sample: true, questions: listDemoQuestions() });
  });

  app.post(
    '/',
    functionJson(demoRequestSchema, {
      hint: 'Send { question_id, answer } with the answer as text.',
    }),
    (c) => {
      c.header('Cache-Control', 'no-store');
      const wait = limiter.take(clientAddress(c));
      // One process's buckets, never shared with others: clearing the usage it keeps for
      // sharing lets idle addresses be swept from memory.
      limiter.takeUsage({ all: true });
      if (wait > 0) {
        const seconds = Math.ceil(wait);
        c.header('Retry-After', String(seconds));
        return c.json(
          {
            error: `The demo has checked many answers from your address; try again in ${seconds} seconds, or sign up to use the coach itself.`,
            code: 'rate_limited',
          },
          429,
        );
      }
      const body = c.req.valid('json');
      const evaluation = evaluateDemoAnswer(body.question_id, body.answer);
      if (!evaluation) {
        return c.json(
          { error: 'There is no sample question with this id.', code: 'unknown_question' },
          404,
        );
      }
      return c.json({ ...evaluation, engine: OFFLINE_ENGINE });
    },
  );

  return app;
}

export const coachDemoFunction: EdgeFunctionDefinition = {
  name: 'coach-demo',
  public: true,
  maxBodyBytes: 4 * COACH_TEXT_MAX_BYTES,
  create: createApp,
};
