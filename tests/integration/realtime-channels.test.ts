/**
 * Broadcast and presence through supabase-js's `channel()` API, on both serializers.
 * "Nothing arrived" is asserted after an acknowledged send: the server fans a broadcast out
 * before it acknowledges it, and each connection receives in order, so anything due would be
 * in the inbox by the time the acknowledgement is.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimePresenceState, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Inbox, joined, realtimeClient } from '../support/realtime';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

type Received = { event: string; payload: unknown; type: string };

describe.each(databaseKinds)('realtime broadcast and presence (%s)', (kind) => {
  let server: TestServer;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
  });
  afterAll(async () => {
    await server?.stop();
  });

  function client(vsn?: '1.0.0' | '2.0.0') {
    const c = realtimeClient(server, { vsn });
    clients.push(c);
    return c;
  }

  describe.each(['2.0.0', '1.0.0'] as const)('vsn %s', (vsn) => {
    it('delivers a broadcast to the other subscribers, acknowledged, not to the sender', async () => {
      const room = `room-${randomUUID()}`;
      const alice = client(vsn);
      const bob = client(vsn);
      const aliceInbox = new Inbox<Received>();
      const bobInbox = new Inbox<Received>();
      const aliceChannel = await joined(
        alice
          .channel(room, { config: { broadcast: { ack: true } } })
          .on('broadcast', { event: '*' }, aliceInbox.push),
      );
      await joined(bob.channel(room).on('broadcast', { event: 'chat' }, bobInbox.push));

      const status = await aliceChannel.send({
        type: 'broadcast',
        event: 'chat',
        payload: { text: 'héllo 👋', n: 1 },
      });

      expect(status).toBe('ok');
      expect(await bobInbox.next()).toMatchObject({
        type: 'broadcast',
        event: 'chat',
        payload: { text: 'héllo 👋', n: 1 },
      });
      expect(aliceInbox.pending).toEqual([]);
    });

    it('sends the sender its own broadcast with self', async () => {
      const room = `room-${randomUUID()}`;
      const inbox = new Inbox<Received>();
      const channel = await joined(
        client(vsn)
          .channel(room, { config: { broadcast: { self: true, ack: true } } })
          .on('broadcast', { event: 'ping' }, inbox.push),
      );

      expect(await channel.send({ type: 'broadcast', event: 'ping', payload: { at: 1 } })).toBe(
        'ok',
      );
      expect(await inbox.next()).toMatchObject({ event: 'ping', payload: { at: 1 } });
    });

    it('keeps each sender’s broadcasts in order', async () => {
      const room = `room-${randomUUID()}`;
      const inbox = new Inbox<Received>();
      const sender = await joined(client(vsn).channel(room));
      await joined(client(vsn).channel(room).on('broadcast', { event: 'n' }, inbox.push));

      for (let n = 0; n < 20; n += 1)
        void sender.send({ type: 'broadcast', event: 'n', payload: { n } });
      const seen: unknown[] = [];
      for (let n = 0; n < 20; n += 1) seen.push(((await inbox.next()).payload as { n: number }).n);

      expect(seen).toEqual([...Array(20).keys()]);
    });

    it('syncs presence across clients and removes a client that disconnects', async () => {
      const room = `room-${randomUUID()}`;
      const alice = client(vsn);
      const bob = realtimeClient(server, { vsn });
      const joins = new Inbox<{ key: string; newPresences: unknown[] }>();
      const leaves = new Inbox<{ key: string; leftPresences: unknown[] }>();
      const watcher = await joined(
        alice
          .channel(room, { config: { presence: { key: 'alice' } } })
          .on('presence', { event: 'join' }, joins.push)
          .on('presence', { event: 'leave' }, leaves.push),
      );
      await watcher.track({ status: 'here' });
      expect(await joins.next()).toMatchObject({
        key: 'alice',
        newPresences: [{ status: 'here' }],
      });

      const bobChannel = await joined(
        bob
          .channel(room, { config: { presence: { key: 'bob' } } })
          .on('presence', { event: 'sync' }, () => {}),
      );
      expect(await bobChannel.track({ status: 'away' })).toBe('ok');
      expect(await joins.next()).toMatchObject({ key: 'bob', newPresences: [{ status: 'away' }] });
      const state: RealtimePresenceState<{ status: string }> = watcher.presenceState();
      expect(Object.keys(state).sort()).toEqual(['alice', 'bob']);
      expect(state.bob?.[0]?.status).toBe('away');
      expect(state.bob?.[0]?.presence_ref).toEqual(expect.any(String));

      // Bob's connection drops without leaving: the server cleans his presence up.
      await bob.realtime.disconnect();
      expect(await leaves.next()).toMatchObject({
        key: 'bob',
        leftPresences: [{ status: 'away' }],
      });
      expect(Object.keys(watcher.presenceState())).toEqual(['alice']);
    });

    it('shows the current state to a client that joins later and untracks', async () => {
      const room = `room-${randomUUID()}`;
      const first = await joined(
        client(vsn).channel(room, { config: { presence: { key: 'k1' } } }),
      );
      expect(await first.track({ mood: 'curious' })).toBe('ok');

      const synced = new Inbox<void>();
      const leaves = new Inbox<{ key: string }>();
      const late = await joined(
        client(vsn)
          .channel(room)
          .on('presence', { event: 'sync' }, () => synced.push())
          .on('presence', { event: 'leave' }, leaves.push),
      );
      await synced.next();
      expect(late.presenceState()).toMatchObject({ k1: [{ mood: 'curious' }] });

      expect(await first.untrack()).toBe('ok');
      expect(await leaves.next()).toMatchObject({ key: 'k1' });
      expect(late.presenceState()).toEqual({});
    });
  });

  it('delivers a binary payload to a 2.0.0 client', async () => {
    const room = `room-${randomUUID()}`;
    const inbox = new Inbox<Received>();
    const sender = await joined(client().channel(room, { config: { broadcast: { ack: true } } }));
    await joined(client().channel(room).on('broadcast', { event: 'bytes' }, inbox.push));
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);

    expect(await sender.send({ type: 'broadcast', event: 'bytes', payload: bytes.buffer })).toBe(
      'ok',
    );
    const received = await inbox.next();
    expect(new Uint8Array(received.payload as ArrayBuffer)).toEqual(bytes);
  });

  it('lets 1.0.0 and 2.0.0 clients talk on one channel', async () => {
    const room = `room-${randomUUID()}`;
    const oldInbox = new Inbox<Received>();
    const newInbox = new Inbox<Received>();
    const old = await joined(
      client('1.0.0')
        .channel(room, { config: { broadcast: { ack: true } } })
        .on('broadcast', { event: 'm' }, oldInbox.push),
    );
    const current = await joined(
      client('2.0.0')
        .channel(room, { config: { broadcast: { ack: true } } })
        .on('broadcast', { event: 'm' }, newInbox.push),
    );

    await old.send({ type: 'broadcast', event: 'm', payload: { from: 'v1' } });
    await current.send({ type: 'broadcast', event: 'm', payload: { from: 'v2' } });

    expect((await newInbox.next()).payload).toEqual({ from: 'v1' });
    expect((await oldInbox.next()).payload).toEqual({ from: 'v2' });
  });

  it('forgets a channel on the server when the client unsubscribes', async () => {
    const listener = client();
    const channel = await joined(listener.channel(`room-${randomUUID()}`));
    const before = server.deps.realtime.subscriptions;

    expect(await listener.removeChannel(channel)).toBe('ok');
    // realtime-js settles a leave at once; a join on the same connection is answered after it.
    await joined(listener.channel(`room-${randomUUID()}`));
    expect(server.deps.realtime.subscriptions).toBe(before);
  });

  it('counts each client event and each delivery into the platform metrics’ realtime_events', async () => {
    const room = `room-${randomUUID()}`;
    const inbox = new Inbox<Received>();
    const sender = await joined(client().channel(room, { config: { broadcast: { ack: true } } }));
    await joined(client().channel(room).on('broadcast', { event: 'm' }, inbox.push));
    await joined(
      client()
        .channel(room)
        .on('broadcast', { event: 'm' }, () => undefined),
    );
    // What earlier tests counted is written out first, then forgotten.
    await server.deps.metrics.flush(server.deps.db);
    await server.deps.db.exec('delete from platform.request_metrics');

    expect(await sender.send({ type: 'broadcast', event: 'm', payload: { n: 1 } })).toBe('ok');
    await inbox.next();
    await server.deps.metrics.flush(server.deps.db);

    const { data, error } = await server
      .anon()
      .rpc('get_public_platform_metrics')
      .setHeader('Cache-Control', 'no-cache');
    expect(error).toBeNull();
    // One broadcast received from the sender, delivered to two subscribers; joins, replies and
    // heartbeats are not events.
    expect((data as { estimates: { realtime_events: number } }).estimates.realtime_events).toBe(3);
  });
});
