/**
 * POST /functions/v1/simple-ai-chat with the service-role key and `{ message, system? }`: the
 * spec's legacy one-shot chat for developers, through the model-provider layer (General mode's
 * route). Answers `{ reply, engine }`; with no model configured, 503 `no_model` saying so.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { coachText, COACH_TEXT_MAX_BYTES } from '../../common/coach';
import { AiFailedError, createAiProvider } from '../ai/provider';
import type { ApiEnv, GatewayDeps } from '../gateway/context';
import { functionJson } from '../gateway/functions/function-body';
import type { EdgeFunctionDefinition } from './types';

const chatBody = z.object({
  message: coachText('message'),
  system: coachText('system').optional(),
});

function createApp(deps: GatewayDeps) {
  const app = new Hono<ApiEnv>();
  const ai = createAiProvider(deps.config.ai);

  app.post('/', functionJson(chatBody), async (c) => {
    if (c.get('claims').role !== 'service_role') {
      return c.json(
        { error: 'simple-ai-chat needs the service-role key.', code: 'forbidden' },
        403,
      );
    }
    c.header('Cache-Control', 'no-store');
    if (!ai.configured('general')) {
      return c.json(
        {
          error:
            'No AI model is configured: set AI_B_MODEL and AI_B_BASE_URL (or AI_A_*) to chat. The study coach answers with its built-in offline engine meanwhile.',
          code: 'no_model',
        },
        503,
      );
    }
    const body = c.req.valid('json');
    try {
      const { text, engine } = await ai.generate({
        route: 'general',
        system: body.system,
        messages: [{ role: 'user', content: body.message }],
      });
      return c.json({ reply: text, engine }, 200);
    } catch (error) {
      if (!(error instanceof AiFailedError)) throw error;
      return c.json({ error: error.message, code: 'model_failed' }, 502);
    }
  });

  return app;
}

export const simpleAiChatFunction: EdgeFunctionDefinition = {
  name: 'simple-ai-chat',
  timeoutMs: 60_000,
  maxBodyBytes: 4 * COACH_TEXT_MAX_BYTES,
  create: createApp,
};
