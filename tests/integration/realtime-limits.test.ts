/**
 * The protections of /realtime/v1 (decision 0300) as a client sees them: floods refused per
 * connection and per caller while others carry on, oversized and malformed frames, unknown and
 * forbidden topics, too many channels, a token that expires by `access_token`, and a silent
 * socket closed after the heartbeat timeout. The limits are small server settings so a short
 * burst crosses them; a refill cannot admit a whole burst because the server handles a
 * connection's frames back to back, far faster than a second.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Inbox,
  joined,
  rawSocket,
  realtimeClient,
  subscribe,
  withToken,
  type RawSocket,
} from '../support/realtime';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

const EVENTS_PER_SECOND = 5;
const KEY_EVENTS_PER_SECOND = 8;
const MAX_MESSAGE_BYTES = 1024;
const MAX_CHANNELS = 3;

type Received = { event: string; payload: { from?: string; n?: number } };
type CloseEvent = { code: number; reason: string };

/** How realtime-js's socket was closed by the server (its `close` state callbacks). */
function socketCloses(client: SupabaseClient): Inbox<CloseEvent> {
  const inbox = new Inbox<CloseEvent>();
  client.realtime.stateChangeCallbacks.close.push([
    randomUUID(),
    (event: CloseEvent) => inbox.push({ code: event.code, reason: event.reason }),
  ]);
  return inbox;
}

describe.each(databaseKinds)('realtime limits and bad input (%s)', (kind) => {
  let server: TestServer;
  const clients: SupabaseClient[] = [];
  const sockets: RawSocket[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind, {
      REALTIME_EVENTS_PER_SECOND: String(EVENTS_PER_SECOND),
      REALTIME_KEY_EVENTS_PER_SECOND: String(KEY_EVENTS_PER_SECOND),
      REALTIME_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES),
      REALTIME_MAX_CHANNELS_PER_CONNECTION: String(MAX_CHANNELS),
    });
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.close();
    await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function asUser(sub = randomUUID()) {
    const token = await signUserToken(server, sub);
    const c = realtimeClient(server, { token: () => token });
    clients.push(c);
    return withToken(c);
  }

  async function raw() {
    const socket = await rawSocket(server);
    sockets.push(socket);
    return socket;
  }

  function acked(client: SupabaseClient, room: string, inbox?: Inbox<Received>) {
    const channel = client.channel(room, { config: { broadcast: { ack: true } } });
    if (inbox) channel.on('broadcast', { event: 'm' }, inbox.push);
    return joined(channel);
  }

  /** Sends `count` broadcasts at once (realtime-js puts them on the wire back to back). */
  function burst(channel: RealtimeChannel, from: string, count: number) {
    return Promise.all(
      Array.from({ length: count }, (_, n) =>
        channel.send({ type: 'broadcast', event: 'm', payload: { from, n } }),
      ),
    );
  }

  it('refuses a flooding connection’s excess broadcasts while others on the channel carry on', async () => {
    const room = `room-${randomUUID()}`;
    const watcherInbox = new Inbox<Received>();
    const flooder = await acked(await asUser(), room);
    const other = await acked(await asUser(), room);
    await acked(await asUser(), room, watcherInbox);

    const results = await burst(flooder, 'flooder', 3 * EVENTS_PER_SECOND);
    const admitted = results.filter((r) => r === 'ok').length;
    expect(results.slice(0, EVENTS_PER_SECOND)).toEqual(Array(EVENTS_PER_SECOND).fill('ok'));
    expect(results).toContain('error');
    expect(results.every((r) => r === 'ok' || r === 'error')).toBe(true);

    // Another caller on the same channel is not held back, and the flooder's channel stays up.
    expect(await other.send({ type: 'broadcast', event: 'm', payload: { from: 'other' } })).toBe(
      'ok',
    );
    const seen: Received[] = [];
    for (;;) {
      const item = await watcherInbox.next();
      seen.push(item);
      if (item.payload.from === 'other') break;
    }
    // Exactly the admitted broadcasts reached the others, in the order sent.
    const delivered = seen.filter((r) => r.payload.from === 'flooder').map((r) => r.payload.n);
    expect(delivered).toHaveLength(admitted);
    expect(delivered).toEqual([...delivered].sort((a, b) => a! - b!));
    expect(flooder.state).toBe('joined');
  });

  it('limits one caller across its connections, not the callers beside it', async () => {
    const room = `room-${randomUUID()}`;
    const user = randomUUID();
    // Each connection stays within its own limit; together they are over the caller's.
    const connections = await Promise.all(
      [0, 1, 2].map(async () => acked(await asUser(user), room)),
    );
    const results = (
      await Promise.all(connections.map((c, i) => burst(c, `c${i}`, EVENTS_PER_SECOND)))
    ).flat();
    expect(results).toContain('error');
    expect(results.filter((r) => r === 'ok').length).toBeLessThan(results.length);

    const bystander = await acked(await asUser(), room);
    expect(await bystander.send({ type: 'broadcast', event: 'm', payload: {} })).toBe('ok');
  });

  it('answers a refused event with Supabase’s reason and keeps the connection', async () => {
    const socket = await raw();
    const topic = `realtime:room-${randomUUID()}`;
    socket.push('1', '1', topic, 'phx_join', { config: { broadcast: { ack: true } } });
    expect(await socket.reply('1')).toMatchObject({ status: 'ok' });

    for (let n = 0; n < 3 * EVENTS_PER_SECOND; n += 1)
      socket.push('1', `b${n}`, topic, 'broadcast', { type: 'broadcast', event: 'm', payload: {} });
    const replies = [];
    for (let n = 0; n < 3 * EVENTS_PER_SECOND; n += 1) replies.push(await socket.reply(`b${n}`));
    expect(replies).toContainEqual({
      status: 'error',
      response: { reason: 'ClientRateLimitReached: Too many messages per second' },
    });

    socket.push(null, 'hb', 'phoenix', 'heartbeat', {});
    expect(await socket.reply('hb')).toEqual({ status: 'ok', response: {} });
  });

  it('refuses a broadcast over the size limit and closes a frame far over it with 1009', async () => {
    const room = `room-${randomUUID()}`;
    const client = await asUser();
    const channel = await acked(client, room);
    const closes = socketCloses(client);

    expect(
      await channel.send({ type: 'broadcast', event: 'm', payload: { text: 'x'.repeat(2000) } }),
    ).toBe('error');
    expect(await channel.send({ type: 'broadcast', event: 'm', payload: { text: 'small' } })).toBe(
      'ok',
    );

    const socket = await raw();
    socket.push('1', '1', `realtime:${room}`, 'phx_join', {});
    expect(await socket.reply('1')).toMatchObject({ status: 'ok' });
    socket.push('1', '2', `realtime:${room}`, 'broadcast', {
      type: 'broadcast',
      event: 'm',
      payload: { text: 'x'.repeat(2000) },
    });
    expect(await socket.reply('2')).toEqual({
      status: 'error',
      response: { reason: `PayloadSizeExceeded: Payload is over ${MAX_MESSAGE_BYTES} bytes` },
    });

    // A frame larger than twice the limit plus its envelope is cut off before it is read.
    void channel.send({ type: 'broadcast', event: 'm', payload: { text: 'x'.repeat(100_000) } });
    expect(await closes.next()).toMatchObject({ code: 1009 });
  });

  it('closes the connection on malformed frames with 1007', async () => {
    const cases = [
      'not json',
      JSON.stringify([null, '1', 'phoenix', 'heartbeat']),
      JSON.stringify({ topic: 'phoenix', event: 'heartbeat', payload: {}, ref: '1' }),
      JSON.stringify([null, '1', 42, 'heartbeat', {}]),
    ];
    for (const text of cases) {
      const socket = await raw();
      socket.sendText(text);
      const closed = await socket.closed;
      expect(closed.code, text).toBe(1007);
      expect(closed.reason, text).toMatch(/^malformed frame: /);
    }
  });

  it('ignores an unknown event on a joined topic and answers unknown topics with an error', async () => {
    const socket = await raw();
    const topic = `realtime:room-${randomUUID()}`;
    socket.push('1', '1', topic, 'phx_join', {});
    expect(await socket.reply('1')).toMatchObject({ status: 'ok' });

    socket.push('1', '2', topic, 'no_such_event', { x: 1 });
    socket.push('9', '3', `realtime:never-joined-${randomUUID()}`, 'broadcast', {
      type: 'broadcast',
      event: 'm',
      payload: {},
    });
    socket.push('9', '4', 'not-a-realtime-topic', 'phx_join', {});
    socket.push('9', '5', 'realtime:', 'phx_join', {});
    socket.push('9', '6', `realtime:${'x'.repeat(300)}`, 'phx_join', {});
    socket.push(null, '7', 'phoenix', 'heartbeat', {});

    // Frames are answered in order: everything due before the heartbeat's reply came first.
    const replies: Record<string, unknown> = {};
    for (;;) {
      const frame = await socket.frames.next();
      if (frame.ref === '7') break;
      if (frame.event === 'phx_reply' && frame.ref) replies[frame.ref] = frame.payload;
    }
    expect(replies['2']).toBeUndefined();
    expect(replies['3']).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    expect(replies['4']).toEqual({ status: 'error', response: { reason: 'unmatched topic' } });
    expect(replies['5']).toEqual({
      status: 'error',
      response: { reason: 'TopicNameRequired: You must provide a topic name' },
    });
    expect(replies['6']).toEqual({
      status: 'error',
      response: { reason: 'TopicNameTooLong: Topic names are at most 255 bytes' },
    });
  });

  it('shows realtime-js why a topic or one channel too many is refused', async () => {
    const client = await asUser();
    const nameless = await subscribe(client.channel(''));
    expect(nameless.status).toBe('CHANNEL_ERROR');
    expect(nameless.error?.message).toBe('TopicNameRequired: You must provide a topic name');
    await client.removeAllChannels();

    for (let n = 0; n < MAX_CHANNELS; n += 1) await joined(client.channel(`room-${randomUUID()}`));
    const extra = await subscribe(client.channel(`room-${randomUUID()}`));
    expect(extra.status).toBe('CHANNEL_ERROR');
    expect(extra.error?.message).toBe('ChannelRateLimitReached: Too many channels');
  });

  it('closes a channel whose swapped access token has expired', async () => {
    let token = await signUserToken(server, randomUUID());
    const c = realtimeClient(server, { token: () => token });
    clients.push(c);
    await withToken(c);
    const channel = c.channel(`room-${randomUUID()}`);
    const system = new Inbox<{ status: string; message: string }>();
    const statuses = new Inbox<string>();
    channel.on('system', {}, system.push);
    channel.subscribe((status) => statuses.push(status));
    expect(await statuses.next()).toBe('SUBSCRIBED');

    token = await signUserToken(server, randomUUID(), { expiresIn: -10 });
    await c.realtime.setAuth();

    expect(await system.next()).toMatchObject({ status: 'error', message: 'Token has expired' });
    expect(await statuses.next()).toBe('CLOSED');
  });
});

describe.each(databaseKinds)('realtime heartbeat timeout (%s)', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, { REALTIME_HEARTBEAT_TIMEOUT_SECONDS: '0.5' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('closes a socket that sends nothing, as realtime-js sees it', async () => {
    const silent = await rawSocket(server);
    expect(await silent.closed).toEqual({ code: 1000, reason: 'heartbeat timeout' });

    // realtime-js heartbeats every 25 s, later than this server waits: it is closed too.
    const client = realtimeClient(server);
    const closes = socketCloses(client);
    const channel = client.channel(`room-${randomUUID()}`);
    const statuses = new Inbox<string>();
    channel.subscribe((status) => statuses.push(status));
    expect(await statuses.next()).toBe('SUBSCRIBED');
    expect(await closes.next()).toEqual({ code: 1000, reason: 'heartbeat timeout' });
    expect(await statuses.next()).toBe('CHANNEL_ERROR');
    await client.removeAllChannels();
    client.realtime.disconnect();
  });
});
