/**
 * Presence across gateway processes on one PostgreSQL database (decision 0303): clients on two
 * processes see one presence state and its diffs, and a process killed outright (SIGKILL, no
 * goodbye) has its presences leave everywhere once the peer timeout passes. The second process
 * runs as an operator starts it; PGlite belongs to one process, so this is PostgreSQL only.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { Inbox, joined, realtimeClient } from '../support/realtime';
import { startTestServer, type TestServer } from '../support/test-server';

type Meta = { where: string };

describe('realtime presence across gateway processes (postgres)', () => {
  let first: TestServer;
  let second: GatewayProcess;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    first = await startTestServer('postgres', { REALTIME_PEER_TIMEOUT_SECONDS: '2' });
    second = await startGatewayProcess(first.deps.config.databaseUrl!, {
      REALTIME_PEER_TIMEOUT_SECONDS: '2',
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.removeAllChannels()));
    await second?.stop();
    await first?.stop();
  });

  function client(url: string) {
    const c = realtimeClient({ url, anonKey: first.anonKey });
    clients.push(c);
    return c;
  }

  /** A presence channel and a way to wait until its state reads as expected. */
  async function present(url: string, room: string, key: string) {
    const synced = new Inbox<void>();
    const leaves = new Inbox<{ key: string; leftPresences: Meta[] }>();
    const channel = await joined(
      client(url)
        .channel(room, { config: { presence: { key } } })
        .on('presence', { event: 'sync' }, () => synced.push())
        .on('presence', { event: 'leave' }, leaves.push),
    );
    return {
      channel,
      leaves,
      /** Waits for syncs until the state (key → its metas' `where`) is this. */
      async until(expected: Record<string, string[]>) {
        for (;;) {
          if (JSON.stringify(summary(channel)) === JSON.stringify(sorted(expected))) return;
          await synced.next();
        }
      },
    };
  }

  it('shows one presence state on both processes and its diffs cross between them', async () => {
    const room = `room-${randomUUID()}`;
    const alice = await present(first.url, room, 'alice');
    const bob = await present(second.url, room, 'bob');

    expect(await alice.channel.track({ where: 'first' })).toBe('ok');
    expect(await bob.channel.track({ where: 'second' })).toBe('ok');
    await alice.until({ alice: ['first'], bob: ['second'] });
    await bob.until({ alice: ['first'], bob: ['second'] });

    // A re-track replaces the meta everywhere; a client joining later gets the whole state.
    expect(await bob.channel.track({ where: 'second, again' })).toBe('ok');
    await alice.until({ alice: ['first'], bob: ['second, again'] });
    const late = await present(first.url, room, 'carol');
    await late.until({ alice: ['first'], bob: ['second, again'] });
    const aliceRef = alice.channel.presenceState<Meta>().alice![0]!.presence_ref;
    expect(bob.channel.presenceState<Meta>().alice![0]!.presence_ref).toBe(aliceRef);

    expect(await bob.channel.untrack()).toBe('ok');
    const left = await alice.leaves.until(
      (leave) => leave.key === 'bob' && leave.leftPresences[0]?.where === 'second, again',
    );
    expect(left.leftPresences).toHaveLength(1);
    await alice.until({ alice: ['first'] });
  });

  it('removes the presences of a process that is killed, on the processes left', async () => {
    const room = `room-${randomUUID()}`;
    const alice = await present(first.url, room, 'alice');
    const dave = await present(second.url, room, 'dave');
    expect(await alice.channel.track({ where: 'first' })).toBe('ok');
    expect(await dave.channel.track({ where: 'second' })).toBe('ok');
    await alice.until({ alice: ['first'], dave: ['second'] });

    await second.kill();

    await alice.until({ alice: ['first'] });
  });
});

function sorted(state: Record<string, string[]>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(state)
      .map(([key, wheres]) => [key, [...wheres].sort()] as const)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

function summary(channel: RealtimeChannel): Record<string, string[]> {
  const state = channel.presenceState<Meta>();
  return sorted(
    Object.fromEntries(
      Object.entries(state).map(([key, metas]) => [key, metas.map((m) => m.where)]),
    ),
  );
}
