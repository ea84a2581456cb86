/**
 * The model-provider layer (decision 0201): our own small interface over the AI SDK, so the
 * coach never names a vendor. Two configured providers, routed as the spec says: Personal mode
 * asks provider A's mid-size model; General mode asks provider B's small model and, when it
 * fails or times out, B's larger model. With nothing configured there is no model at all and
 * callers use the built-in offline engine; every answer says which engine and model gave it.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, streamText, type LanguageModel } from 'ai';
import type { Config } from '../config';

export type AiRoute = 'personal' | 'general';

/** Which engine answered, as the UI shows it. */
export interface EngineInfo {
  kind: 'offline' | 'model';
  /** "Built-in offline engine", or "Provider B · gpt-4o-mini". */
  label: string;
  provider?: 'A' | 'B';
  model?: string;
}

export const OFFLINE_ENGINE: EngineInfo = { kind: 'offline', label: 'Built-in offline engine' };

export interface AiMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AiRequest {
  route: AiRoute;
  system?: string;
  messages: AiMessage[];
  maxOutputTokens?: number;
  /** The caller's own cancellation (a closed connection). */
  signal?: AbortSignal;
}

export interface AiStream {
  engine: EngineInfo;
  /** The reply's text as it arrives; throws if the model fails after its first words. */
  textStream: AsyncIterable<string>;
}

export interface AiProvider {
  /** Whether a model answers this route; false means the offline engine. */
  configured(route: AiRoute): boolean;
  /** The models tried for a route, in order. */
  engines(route: AiRoute): EngineInfo[];
  /** One reply, from the first model of the route's chain that answers in time. */
  generate(request: AiRequest): Promise<{ text: string; engine: EngineInfo }>;
  /**
   * A streamed reply: resolves once a model has sent its first words (a model that fails or
   * times out before that is replaced by the next one of the chain).
   */
  stream(request: AiRequest): Promise<AiStream>;
}

/** No model is configured for the route: use the offline engine. */
export class AiUnavailableError extends Error {
  constructor(route: AiRoute) {
    super(`No AI model is configured for ${route} mode.`);
    this.name = 'AiUnavailableError';
  }
}

/** Every model of the route failed or timed out. */
export class AiFailedError extends Error {
  constructor(public readonly attempts: Array<{ engine: EngineInfo; error: string }>) {
    super(
      `No AI model answered: ${attempts.map((a) => `${a.engine.label} (${a.error})`).join('; ')}`,
    );
    this.name = 'AiFailedError';
  }
}

type AiConfig = Config['ai'];
type ProviderConfig = NonNullable<AiConfig['a']>;

interface Candidate {
  engine: EngineInfo;
  model: LanguageModel;
}

function languageModel(provider: ProviderConfig, modelId: string): LanguageModel {
  if (provider.kind === 'anthropic') {
    return createAnthropic({
      apiKey: provider.apiKey,
      ...(provider.baseUrl ? { baseURL: provider.baseUrl } : {}),
    })(modelId);
  }
  return createOpenAICompatible({
    name: `provider-${provider.name.toLowerCase()}`,
    baseURL: provider.baseUrl!,
    ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
  }).chatModel(modelId);
}

function candidate(provider: ProviderConfig, modelId: string): Candidate {
  return {
    engine: {
      kind: 'model',
      label: `Provider ${provider.name} · ${modelId}`,
      provider: provider.name,
      model: modelId,
    },
    model: languageModel(provider, modelId),
  };
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'AbortError' || error.name === 'TimeoutError') return 'timed out';
    return error.message.slice(0, 200);
  }
  return String(error).slice(0, 200);
}

/**
 * An abort signal for one attempt: the caller's, or the timeout, whichever comes first. `touch`
 * restarts the timeout (a stream that keeps sending is not stuck).
 */
function attemptSignal(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  const abort = () => controller.abort(new DOMException('The model timed out.', 'TimeoutError'));
  let timer = setTimeout(abort, timeoutMs);
  const onOuter = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: controller.signal,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(abort, timeoutMs);
    },
    done() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

export function createAiProvider(config: AiConfig): AiProvider {
  const chainA: Candidate[] = config.a ? [candidate(config.a, config.a.model)] : [];
  const chainB: Candidate[] = config.b
    ? [
        candidate(config.b, config.b.model),
        ...(config.bFallbackModel ? [candidate(config.b, config.bFallbackModel)] : []),
      ]
    : [];
  // Each mode uses its own provider; with only one configured, both modes use that one.
  const chains: Record<AiRoute, Candidate[]> = {
    personal: chainA.length > 0 ? chainA : chainB,
    general: chainB.length > 0 ? chainB : chainA,
  };

  const chainFor = (route: AiRoute) => {
    const chain = chains[route];
    if (chain.length === 0) throw new AiUnavailableError(route);
    return chain;
  };

  return {
    configured: (route) => chains[route].length > 0,
    engines: (route) => chains[route].map((c) => c.engine),

    async generate(request) {
      const attempts: Array<{ engine: EngineInfo; error: string }> = [];
      for (const { engine, model } of chainFor(request.route)) {
        const attempt = attemptSignal(config.timeoutMs, request.signal);
        try {
          const result = await generateText({
            model,
            system: request.system,
            messages: request.messages,
            maxOutputTokens: request.maxOutputTokens,
            maxRetries: 0,
            abortSignal: attempt.signal,
          });
          return { text: result.text, engine };
        } catch (error) {
          if (request.signal?.aborted) throw error;
          attempts.push({ engine, error: describeError(error) });
        } finally {
          attempt.done();
        }
      }
      throw new AiFailedError(attempts);
    },

    async stream(request) {
      const attempts: Array<{ engine: EngineInfo; error: string }> = [];
      for (const { engine, model } of chainFor(request.route)) {
        const attempt = attemptSignal(config.timeoutMs, request.signal);
        const result = streamText({
          model,
          system: request.system,
          messages: request.messages,
          maxOutputTokens: request.maxOutputTokens,
          maxRetries: 0,
          abortSignal: attempt.signal,
          // Errors arrive as parts of the full stream below; nothing to log twice.
          onError: () => undefined,
        });
        const parts = result.fullStream[Symbol.asyncIterator]();
        try {
          // Wait for the first words: until then another model can still take over.
          let first: string | undefined;
          for (;;) {
            const next = await parts.next();
            if (next.done) break;
            const part = next.value;
            if (part.type === 'error') throw part.error;
            if (part.type === 'abort')
              throw new DOMException('The model timed out.', 'TimeoutError');
            if (part.type === 'text-delta' && part.text !== '') {
              first = part.text;
              break;
            }
          }
          attempt.touch();
          async function* rest(): AsyncGenerator<string> {
            try {
              if (first !== undefined) yield first;
              for (;;) {
                const next = await parts.next();
                if (next.done) return;
                const part = next.value;
                attempt.touch();
                if (part.type === 'error') throw part.error;
                if (part.type === 'abort')
                  throw new DOMException('The model timed out.', 'TimeoutError');
                if (part.type === 'text-delta') yield part.text;
              }
            } finally {
              attempt.done();
            }
          }
          return { engine, textStream: rest() };
        } catch (error) {
          attempt.done();
          if (request.signal?.aborted) throw error;
          attempts.push({ engine, error: describeError(error) });
        }
      }
      throw new AiFailedError(attempts);
    },
  };
}
