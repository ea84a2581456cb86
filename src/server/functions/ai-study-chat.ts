/**
 * POST /functions/v1/ai-study-chat: one message to the study coach (issue 13's contract).
 *
 *   body   { session_id?, mode: 'study' | 'quiz' | 'general', course_id?, topic?, message }
 *   answer { session_id, mode, state, offer, reply, question_id?, engine }
 *
 * With `Accept: text/event-stream` the reply streams as server-sent events: `delta` events
 * carry pieces of the reply, and the last event, `done`, carries the same object as the JSON
 * answer. Refusals are JSON `{ error, code }` before any event is sent: 429 `quota_exceeded`
 * (with the reset date) when the month's coach messages are used up. With a model configured
 * (`AI_*`), its words stream as they arrive; otherwise the offline reply is sent in pieces.
 */
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { chatRequestSchema, type ChatResponse } from '../../common/coach-chat';
import { isUuid } from '../auth/users';
import { createAiProvider } from '../ai/provider';
import { beginTurn, CoachError } from '../coach/chat';
import { evaluateAnswer } from '../coach/evaluate';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

/** Pieces of a reply for streaming: a few words each, whitespace kept. */
export function replyPieces(reply: string): string[] {
  return reply.match(/\S+\s*(\S+\s*){0,3}|\s+/g) ?? [reply];
}

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const coach = { db: deps.db, evaluate: evaluateAnswer, ai: createAiProvider(deps.config.ai) };

  app.use('*', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof CoachError) {
      return c.json({ error: error.message, code: error.code }, error.status);
    }
    throw error;
  });

  app.post(
    '/',
    functionJson(chatRequestSchema, {
      hint: 'Send { mode: "study" | "quiz" | "general", message, session_id?, course_id?, topic? }.',
    }),
    async (c) => {
      const claims = c.get('claims');
      if (claims.role !== 'authenticated' || !isUuid(claims.sub)) {
        throw new CoachError(403, 'sign_in_required', 'Sign in to talk to the study coach.');
      }
      const turn = await beginTurn(coach, claims.sub, c.req.valid('json'));
      if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
        const { answer } = await turn.finish();
        return c.json(answer);
      }
      return streamSSE(c, async (stream) => {
        const delta = (text: string) =>
          stream.writeSSE({ event: 'delta', data: JSON.stringify({ text }) });
        const { answer, streamed } = await turn.finish(delta);
        if (!streamed) for (const piece of replyPieces(answer.reply)) await delta(piece);
        await stream.writeSSE({
          event: 'done',
          data: JSON.stringify(answer satisfies ChatResponse),
        });
      });
    },
  );

  return app;
}

export const aiStudyChatFunction: EdgeFunctionDefinition = {
  name: 'ai-study-chat',
  // Room for an 8 KB message written with JSON escapes, so its size is refused by the schema
  // with the coach's own message rather than by the router.
  maxBodyBytes: 64 * 1024,
  timeoutMs: 30_000,
  create: createApp,
};
