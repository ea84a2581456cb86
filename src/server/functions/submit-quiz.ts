/**
 * POST /functions/v1/submit-quiz with the learner's token and `{ assessment_id, answers }`:
 * submits a quiz attempt and answers the attempt's row as the REST API shows it, with each
 * short-text answer already graded by the answer evaluator and its reason in `feedback`
 * (decision 0223). Refusals keep the submission procedure's words and statuses (403 not
 * enrolled, 409 closed or no attempts left, 400 a malformed answer); an answer over 8 KB or with
 * control characters is refused with a 400 before anything is written.
 */
import { Hono } from 'hono';
import { COACH_TEXT_MAX_BYTES, quizSubmissionSchema } from '../../common/coach';
import { createAiProvider } from '../ai/provider';
import { QuizAnswerError, submitQuizAttempt } from '../coach/quiz-grading';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import { fromDatabaseError } from '../gateway/rest/errors';
import type { EdgeFunctionDefinition } from './types';

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const ai = createAiProvider(deps.config.ai);

  app.onError((error, c) => {
    if (error instanceof QuizAnswerError)
      return c.json({ error: error.message, code: error.code }, error.status);
    const refusal = fromDatabaseError(error, c.get('claims').role);
    if (refusal && refusal.status < 500) {
      return c.json(
        { error: refusal.message, code: refusal.code, details: refusal.details ?? null },
        refusal.status as 400,
      );
    }
    throw error;
  });

  app.post(
    '/',
    functionJson(quizSubmissionSchema, {
      hint: 'Send { assessment_id, answers } with answers keyed by question id.',
    }),
    async (c) => {
      if (c.get('claims').role !== 'authenticated') {
        return c.json({ error: 'Sign in to submit a quiz.', code: 'not_signed_in' }, 401);
      }
      const body = c.req.valid('json');
      const attempt = await submitQuizAttempt({ db: deps.db, ai, log: deps.log }, c.get('claims'), {
        assessmentId: body.assessment_id,
        answers: body.answers,
      });
      c.header('Cache-Control', 'no-store');
      return c.json(attempt, 200);
    },
  );

  return app;
}

export const submitQuizFunction: EdgeFunctionDefinition = {
  name: 'submit-quiz',
  // A configured model that times out hands over to the offline evaluator.
  timeoutMs: 60_000,
  // A quiz's answers: a few texts of at most 8 KB each, and JSON's escaping.
  maxBodyBytes: 64 * COACH_TEXT_MAX_BYTES,
  create: createApp,
};
