/**
 * Helpers for realtime tests driven through supabase-js: clients that speak as a given token,
 * a promise for a channel's subscription, and an inbox that hands out events as they arrive.
 */
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { TestServer } from './test-server';

export interface RealtimeClientOptions {
  /** The bearer token the realtime client joins with (a user's access token); the API key if unset. */
  token?: () => string;
  /** Protocol version: 2.0.0 is realtime-js's default. */
  vsn?: '1.0.0' | '2.0.0';
}

/** A supabase-js client whose realtime connection goes to the test server. */
export function realtimeClient(
  server: Pick<TestServer, 'url' | 'anonKey'>,
  options: RealtimeClientOptions = {},
): SupabaseClient {
  const { token, vsn } = options;
  return createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never, ...(vsn ? { vsn } : {}) },
    ...(token ? { accessToken: async () => token() } : {}),
  });
}

/**
 * realtime-js fetches its token asynchronously and a join sent before it arrives carries none
 * (the token follows in an `access_token` message). Awaiting it first makes the join itself
 * carry the token, as it does in an app whose session was restored before it subscribes.
 */
export async function withToken(client: SupabaseClient): Promise<SupabaseClient> {
  await client.realtime.setAuth();
  return client;
}

export type SubscribeResult = { status: string; error?: Error };

/** Subscribes and settles with the first final status (SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT, CLOSED). */
export function subscribe(channel: RealtimeChannel): Promise<SubscribeResult> {
  return new Promise((resolve) => {
    channel.subscribe((status, error) => resolve({ status, error }));
  });
}

/** Subscribes and fails unless the channel joins. */
export async function joined(channel: RealtimeChannel): Promise<RealtimeChannel> {
  const result = await subscribe(channel);
  if (result.status !== 'SUBSCRIBED')
    throw new Error(`expected SUBSCRIBED, got ${result.status}: ${result.error?.message ?? ''}`);
  return channel;
}

/** Collects values pushed by callbacks; `next()` waits for the next one not yet taken. */
export class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiting: ((item: T) => void)[] = [];

  readonly push = (item: T): void => {
    const waiter = this.waiting.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  };

  next(): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift() as T);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Waits until an item matches, dropping the ones before it. */
  async until(match: (item: T) => boolean): Promise<T> {
    for (;;) {
      const item = await this.next();
      if (match(item)) return item;
    }
  }

  /** What arrived and was not taken yet. */
  get pending(): readonly T[] {
    return this.items;
  }
}

/** A frame a raw Phoenix socket received, decoded from the 2.0.0 array form. */
export interface RawFrame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/**
 * A bare WebSocket speaking vsn 2.0.0 text frames, for what realtime-js never sends on its own
 * (malformed frames, pushes to topics it has not joined, silence instead of heartbeats). It
 * keeps what the server sent and how the server closed the connection.
 */
export interface RawSocket {
  frames: Inbox<RawFrame>;
  closed: Promise<{ code: number; reason: string }>;
  /** Sends `[joinRef, ref, topic, event, payload]`. */
  push(
    joinRef: string | null,
    ref: string | null,
    topic: string,
    event: string,
    payload: unknown,
  ): void;
  sendText(text: string): void;
  /** Waits for the reply to the push with this ref. */
  reply(ref: string): Promise<{ status: string; response: Record<string, unknown> }>;
  close(): void;
}

export async function rawSocket(server: Pick<TestServer, 'url' | 'anonKey'>): Promise<RawSocket> {
  const url = `${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${server.anonKey}&vsn=2.0.0`;
  const ws = new WebSocket(url);
  const frames = new Inbox<RawFrame>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const [joinRef, ref, topic, event, payload] = JSON.parse(String(data)) as [
      string | null,
      string | null,
      string,
      string,
      unknown,
    ];
    frames.push({ joinRef, ref, topic, event, payload });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    frames,
    closed,
    push: (joinRef, ref, topic, event, payload) =>
      ws.send(JSON.stringify([joinRef, ref, topic, event, payload])),
    sendText: (text) => ws.send(text),
    async reply(ref) {
      const frame = await frames.until((f) => f.event === 'phx_reply' && f.ref === ref);
      return frame.payload as { status: string; response: Record<string, unknown> };
    },
    close: () => ws.close(),
  };
}
