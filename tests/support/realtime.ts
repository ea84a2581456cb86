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
