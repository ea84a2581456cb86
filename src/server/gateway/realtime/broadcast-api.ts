/**
 * `/realtime/v1/api/broadcast`: broadcasts from HTTP, as realtime-js sends them.
 * - `POST /api/broadcast` with `{messages:[{topic, event, payload, private?}]}`: the
 *   fallback of `channel.send()` when the channel is not joined, and the server-side API
 *   (service role).
 * - `POST /api/broadcast/{topic}/events/{event}[?private=true]`: `channel.httpSend()`, a JSON
 *   or binary (`application/octet-stream`) body; answered 202 as realtime-js expects.
 * A private channel needs its `realtime.messages` insert policy to let the caller send
 * (the service role bypasses RLS, so it may send anywhere).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { createChannelAuthorizer } from '../../realtime/authorization';
import type { BroadcastBody } from '../../realtime/hub';
import { CallerError, identifyCaller } from '../api-auth';
import type { ApiEnv, GatewayDeps } from '../context';
import { BodyError, readBodyLimited } from '../ops/body';
import { apiCors } from '../ops/cors';
import { cachedVerifier } from '../ops/verified-tokens';
import { fitsBinaryHeader } from './serializer';

const name = z
  .string()
  .min(1)
  .refine(fitsBinaryHeader, 'must be at most 255 bytes')
  .refine((value) => !value.startsWith('realtime:'), 'is the channel name, without "realtime:"');

const batchSchema = z.object({
  messages: z
    .array(
      z.object({
        topic: name,
        event: name,
        payload: z.unknown().optional(),
        private: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(100),
});

interface Outgoing {
  topic: string;
  event: string;
  isPrivate: boolean;
  body: BroadcastBody;
}

export function broadcastRoutes(deps: GatewayDeps) {
  const verifier = cachedVerifier(deps.verifier);
  const authorizer = createChannelAuthorizer(deps.db);
  const limit = deps.config.realtime.maxMessageBytes;
  const app = new Hono<ApiEnv>();
  app.use('*', apiCors());

  app.use('*', async (c, next) => {
    try {
      await identifyCaller(c, verifier);
    } catch (error) {
      if (!(error instanceof CallerError)) throw error;
      return c.json({ error: error.message }, 401);
    }
    return next();
  });

  async function send(c: Context<ApiEnv>, messages: Outgoing[]) {
    const claims = c.get('claims');
    for (const message of messages) {
      const size =
        message.body.kind === 'json'
          ? Buffer.byteLength(message.body.json)
          : message.body.bytes.length;
      if (size > limit)
        return c.json({ error: `The payload for ${message.topic} is over ${limit} bytes` }, 413);
      if (
        message.isPrivate &&
        claims.role !== 'service_role' &&
        !(await authorizer.canWrite(claims, message.topic, 'broadcast'))
      )
        return c.json(
          { error: `You do not have permissions to write to this Channel topic: ${message.topic}` },
          403,
        );
    }
    for (const message of messages) {
      deps.metrics.record('realtime', 200, 0);
      deps.realtime.broadcast({
        topic: `realtime:${message.topic}`,
        isPrivate: message.isPrivate,
        event: message.event,
        body: message.body,
      });
    }
    return c.body(null, 202);
  }

  async function readBody(c: Context<ApiEnv>) {
    try {
      return await readBodyLimited(c.req.raw, limit + 64 * 1024);
    } catch (error) {
      if (error instanceof BodyError) return error;
      throw error;
    }
  }

  app.post('/', async (c) => {
    const bytes = await readBody(c);
    if (bytes instanceof BodyError) return c.json({ error: bytes.message }, 413);
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes ? new TextDecoder().decode(bytes) : '');
    } catch {
      return c.json({ error: 'The body must be JSON: {"messages": [...]}' }, 400);
    }
    const result = batchSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      return c.json({ error: `${issue.path.join('.') || 'body'}: ${issue.message}` }, 400);
    }
    return send(
      c,
      result.data.messages.map((m) => ({
        topic: m.topic,
        event: m.event,
        isPrivate: m.private === true,
        body: { kind: 'json', json: JSON.stringify(m.payload ?? {}) },
      })),
    );
  });

  app.post('/:topic/events/:event', async (c) => {
    const topic = name.safeParse(c.req.param('topic'));
    const event = name.safeParse(c.req.param('event'));
    if (!topic.success || !event.success)
      return c.json({ error: 'The topic and event must be 1 to 255 bytes' }, 400);
    if (c.req.query('persist') !== undefined || c.req.query('persist[ttl]') !== undefined)
      return c.json({ error: 'This server does not store broadcasts for replay' }, 400);
    const bytes = await readBody(c);
    if (bytes instanceof BodyError) return c.json({ error: bytes.message }, 413);
    let body: BroadcastBody;
    if ((c.req.header('content-type') ?? '').startsWith('application/octet-stream')) {
      body = { kind: 'binary', bytes: new Uint8Array(bytes ?? new ArrayBuffer(0)) };
    } else {
      const text = bytes ? new TextDecoder().decode(bytes) : '';
      try {
        body = { kind: 'json', json: JSON.stringify(JSON.parse(text)) };
      } catch {
        return c.json({ error: 'The body must be JSON, or application/octet-stream' }, 400);
      }
    }
    return send(c, [
      { topic: topic.data, event: event.data, isPrivate: c.req.query('private') === 'true', body },
    ]);
  });

  return app;
}
