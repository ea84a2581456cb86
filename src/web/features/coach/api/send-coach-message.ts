/**
 * One message to the coach (POST /functions/v1/ai-study-chat) with the reply streamed as
 * server-sent events: `onDelta` receives the reply as it grows, the promise the final answer.
 * A refusal (400, 403, 404, 429) becomes a `CoachRequestError` with the server's sentence.
 */
import type { ChatRequest, ChatResponse } from '@common/coach-chat';
import { getClientConfig } from '@/lib/client-config';
import { getSupabase } from '@/lib/supabase';

export class CoachRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'CoachRequestError';
  }
}

/** Splits an event stream into its events; returns the unfinished rest. */
function takeEvents(buffer: string, onEvent: (event: string, data: string) => void): string {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) onEvent(event, data.join('\n'));
  }
  return rest;
}

export async function sendCoachMessage(
  request: ChatRequest,
  onDelta: (replySoFar: string) => void,
): Promise<ChatResponse> {
  const [client, config] = await Promise.all([getSupabase(), getClientConfig()]);
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new CoachRequestError('Sign in again to talk to the coach.', 401, 'signed_out');
  const response = await fetch(`${config.apiUrl}/functions/v1/ai-study-chat`, {
    method: 'POST',
    headers: {
      apikey: config.anonKey,
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify(request),
  });
  if (!response.ok || !response.body) {
    let answer: { error?: string; code?: string; details?: string } = {};
    try {
      answer = (await response.json()) as typeof answer;
    } catch {
      answer = {};
    }
    const message =
      answer.details ?? answer.error ?? `The coach could not answer (HTTP ${response.status}).`;
    throw new CoachRequestError(message, response.status, answer.code ?? 'error');
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let reply = '';
  let final: ChatResponse | undefined;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer = takeEvents(buffer + value, (event, payload) => {
      if (event === 'delta') {
        reply += (JSON.parse(payload) as { text: string }).text;
        onDelta(reply);
      } else if (event === 'done') {
        final = JSON.parse(payload) as ChatResponse;
      }
    });
  }
  if (!final)
    throw new CoachRequestError('The coach’s reply was cut off. Try again.', 502, 'cut_off');
  return final;
}
