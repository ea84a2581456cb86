/**
 * /functions/v1/flashcards: the learner's flashcard writes that need the server's own work
 * (decision 0160). The router has verified the token; the work runs under the caller's role.
 *
 *   POST /review   { cardId, rating 1–4, opId?, reviewedAt? }   → { reviewId, card, replayed? }
 *                  one FSRS rating; with opId, a second send finds the first (decision 0181),
 *                  and reviewedAt dates a rating made offline
 */
import { Hono } from 'hono';
import { reviewInputSchema } from '../../common/flashcards';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import { FlashcardError, reviewFlashcard } from '../learning/flashcard-review';
import type { EdgeFunctionDefinition } from './types';

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof FlashcardError)
      return c.json({ error: error.message, code: error.code }, error.status);
    throw error;
  });

  app.post(
    '/review',
    functionJson(reviewInputSchema, {
      hint: 'Send { cardId, rating } with a rating of 1 to 4, and opId (and reviewedAt) for a rating made offline.',
    }),
    async (c) => c.json(await reviewFlashcard(deps.db, c.get('claims'), c.req.valid('json'))),
  );

  return app;
}

export const flashcardsFunction: EdgeFunctionDefinition = {
  name: 'flashcards',
  create: createApp,
};
