/**
 * Broadcasts that do not come from a joined channel: the HTTP API (`send()`'s fallback,
 * `httpSend()`, the service role), `realtime.send(...)` in SQL from a trigger, and, on
 * PostgreSQL, from one gateway process to another on the same database.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startServer, type RunningServer } from '../../src/server/start';
import { Inbox, joined, realtimeClient, withToken } from '../support/realtime';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

const member = randomUUID();

const fixture = `
create policy open_rooms_receive on realtime.messages for select to authenticated
  using (realtime.topic() like 'open-%');

create table public.rt_notes (id serial primary key, body text not null);
alter table public.rt_notes enable row level security;
create policy anyone on public.rt_notes for all to authenticated using (true) with check (true);

-- A trigger broadcasts each new note to the private channel of its room.
create function public.rt_notes_broadcast() returns trigger
language plpgsql security definer set search_path = pg_catalog, public
as $$
begin
  perform realtime.send(jsonb_build_object('id', new.id, 'body', new.body), 'note', 'open-notes', true);
  return new;
end
$$;
create trigger rt_notes_broadcast after insert on public.rt_notes
  for each row execute function public.rt_notes_broadcast();
`;

type Received = { event: string; payload: unknown };

describe.each(databaseKinds)('realtime broadcasts from the server (%s)', (kind) => {
  let server: TestServer;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
  });
  afterAll(async () => {
    await server?.stop();
  });

  function client(target: Pick<TestServer, 'url' | 'anonKey'> = server) {
    const c = realtimeClient(target);
    clients.push(c);
    return c;
  }

  async function memberClient() {
    const token = await signUserToken(server, member);
    const c = realtimeClient(server, { token: () => token });
    clients.push(c);
    return withToken(c);
  }

  async function listen(c: SupabaseClient, topic: string, options: { private?: boolean } = {}) {
    const inbox = new Inbox<Received>();
    await joined(
      c
        .channel(topic, { config: { private: options.private ?? false } })
        .on('broadcast', { event: '*' }, inbox.push),
    );
    return inbox;
  }

  function post(path: string, key: string, body: BodyInit, type = 'application/json') {
    return fetch(`${server.url}/realtime/v1/api/broadcast${path}`, {
      method: 'POST',
      headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': type },
      body,
    });
  }

  it('delivers the service role’s batch of messages, answering 202', async () => {
    const room = `room-${randomUUID()}`;
    const inbox = await listen(client(), room);

    const response = await post(
      '',
      server.serviceRoleKey,
      JSON.stringify({
        messages: [
          { topic: room, event: 'first', payload: { n: 1 } },
          { topic: room, event: 'second', payload: { n: 2 } },
        ],
      }),
    );

    expect(response.status).toBe(202);
    expect(await inbox.next()).toMatchObject({ event: 'first', payload: { n: 1 } });
    expect(await inbox.next()).toMatchObject({ event: 'second', payload: { n: 2 } });
  });

  it('takes httpSend() with JSON and binary bodies, and send() before joining', async () => {
    const room = `room-${randomUUID()}`;
    const inbox = await listen(client(), room);
    const sender = client().channel(room);

    expect(await sender.httpSend('json', { hello: 'world' })).toEqual({ success: true });
    expect(await inbox.next()).toMatchObject({ event: 'json', payload: { hello: 'world' } });
    expect(await sender.httpSend('bytes', new Uint8Array([1, 2, 3]))).toEqual({ success: true });
    expect(new Uint8Array((await inbox.next()).payload as ArrayBuffer)).toEqual(
      new Uint8Array([1, 2, 3]),
    );
    expect(
      await sender.send({ type: 'broadcast', event: 'fallback', payload: { via: 'rest' } }),
    ).toBe('ok');
    expect(await inbox.next()).toMatchObject({ event: 'fallback', payload: { via: 'rest' } });
  });

  it('lets only callers whose policies allow it send to a private channel', async () => {
    const topic = `open-${randomUUID()}`;
    const inbox = await listen(await memberClient(), topic, { private: true });
    const body = JSON.stringify({ messages: [{ topic, event: 'e', payload: {}, private: true }] });

    const refused = await post('', server.anonKey, body);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: `You do not have permissions to write to this Channel topic: ${topic}`,
    });
    expect((await post('', server.serviceRoleKey, body)).status).toBe(202);
    expect(await inbox.next()).toMatchObject({ event: 'e' });
    expect(inbox.pending).toEqual([]);
  });

  it('refuses malformed, oversized and unauthenticated requests with a reason', async () => {
    const bad = await post('', server.serviceRoleKey, '{"messages": [{"topic": ""}]}');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/^messages\.0\.topic: /);
    expect((await post('', server.serviceRoleKey, 'nope')).status).toBe(400);
    const huge = JSON.stringify({
      messages: [{ topic: 'r', event: 'e', payload: { text: 'x'.repeat(300_000) } }],
    });
    expect((await post('', server.serviceRoleKey, huge)).status).toBe(413);
    expect((await post('', 'not-a-key', '{"messages":[]}')).status).toBe(401);
  });

  it('broadcasts from a trigger through realtime.send after commit, never on rollback', async () => {
    const inbox = await listen(await memberClient(), 'open-notes', { private: true });
    const claims = { role: 'authenticated' as const, sub: member };

    await expect(
      server.deps.db.asRole(claims, async (tx) => {
        await tx.query(`insert into public.rt_notes (body) values ('rolled back')`);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await server.deps.db.queryAsRole(claims, `insert into public.rt_notes (body) values ('kept')`);

    expect(await inbox.next()).toMatchObject({ event: 'note', payload: { body: 'kept' } });
  });

  it('does not let a request role call realtime.send itself', async () => {
    await expect(
      server.deps.db.queryAsRole(
        { role: 'authenticated', sub: member },
        `select realtime.send('{}'::jsonb, 'e', 'open-x', true)`,
      ),
    ).rejects.toThrow(/permission denied/);
  });

  // Only PostgreSQL can be shared by two processes (PGlite belongs to one).
  if (kind === 'postgres')
    it('carries broadcasts between two gateway processes on one database', async () => {
      let other: RunningServer | undefined;
      try {
        other = await startServer(
          loadConfig(
            {},
            {
              NODE_ENV: 'test',
              PORT: '0',
              HOST: '127.0.0.1',
              LOG_LEVEL: 'silent',
              DATA_DIR: server.dataDir,
              DATABASE_URL: server.deps.config.databaseUrl,
              DATABASE_POOL_SIZE: '2',
            },
          ),
        );
        const room = `room-${randomUUID()}`;
        const here = await listen(client(), room);
        const there = await listen(client({ url: other.url, anonKey: server.anonKey }), room);
        const sender = await joined(
          client({ url: other.url, anonKey: server.anonKey }).channel(room, {
            config: { broadcast: { ack: true } },
          }),
        );

        for (let n = 0; n < 5; n += 1)
          expect(await sender.send({ type: 'broadcast', event: 'n', payload: { n } })).toBe('ok');
        for (let n = 0; n < 5; n += 1) expect((await here.next()).payload).toEqual({ n });
        expect((await there.next()).payload).toEqual({ n: 0 });
      } finally {
        await Promise.all(clients.splice(0).map((c) => c.removeAllChannels()));
        await other?.close();
      }
    });
});
