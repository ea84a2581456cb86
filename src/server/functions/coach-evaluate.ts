/**
 * POST /functions/v1/coach-evaluate with a user's token and
 * `{ question, reference_answer, key_points?, answer }`: judges a free-text answer and answers
 * `{ verdict, missing, feedback, engine }` (issue 13): the configured General-mode model judges
 * when there is one, the offline evaluator otherwise or when it fails; `engine` says which.
 * Empty, over-8-KB and control-character texts are refused with a 400 that names the field.
 */
import { Hono } from 'hono';
import { coachEvaluateRequestSchema, COACH_TEXT_MAX_BYTES } from '../../common/coach';
import { createAiProvider } from '../ai/provider';
import { evaluateAnswer } from '../coach/evaluate';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const ai = createAiProvider(deps.config.ai);

  app.post('/', functionJson(coachEvaluateRequestSchema), async (c) => {
    if (c.get('claims').role !== 'authenticated') {
      return c.json({ error: 'Sign in to have an answer evaluated.', code: 'not_signed_in' }, 401);
    }
    const body = c.req.valid('json');
    const evaluation = await evaluateAnswer(
      {
        question: body.question,
        referenceAnswer: body.reference_answer,
        keyPoints: body.key_points,
        answer: body.answer,
      },
      { ai, route: 'general' },
    );
    c.header('Cache-Control', 'no-store');
    return c.json(evaluation, 200);
  });

  return app;
}

export const coachEvaluateFunction: EdgeFunctionDefinition = {
  name: 'coach-evaluate',
  // A model that times out hands over to the offline evaluator (B's two models at most).
  timeoutMs: 60_000,
  // Four texts of at most 8 KB each, up to 20 key points, and JSON's escaping.
  maxBodyBytes: 32 * COACH_TEXT_MAX_BYTES,
  create: createApp,
};
