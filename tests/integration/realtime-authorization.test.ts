/**
 * Who may join, send and receive: tokens checked at join and swapped or expiring mid-channel,
 * and private channels whose `realtime.messages` policies decide (Realtime Authorization).
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Inbox, joined, realtimeClient, subscribe, withToken } from '../support/realtime';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

const writer = randomUUID();
const reader = randomUUID();
const outsider = randomUUID();

/** Members of `team-…` topics may receive; only writers may send. */
const policies = `
create table public.rt_team_members (
  user_id uuid not null,
  topic text not null,
  can_write boolean not null default false,
  primary key (user_id, topic)
);
alter table public.rt_team_members enable row level security;
create policy own_rows on public.rt_team_members for select to authenticated
  using (user_id = auth.uid());
create policy members_receive on realtime.messages for select to authenticated
  using (exists (select 1 from public.rt_team_members m
                  where m.user_id = auth.uid() and m.topic = realtime.topic()));
create policy writers_send on realtime.messages for insert to authenticated
  with check (exists (select 1 from public.rt_team_members m
                       where m.user_id = auth.uid() and m.topic = realtime.topic() and m.can_write));
`;

type Status = { status: string; error?: Error };

describe.each(databaseKinds)('realtime authorization (%s)', (kind) => {
  let server: TestServer;
  const clients: SupabaseClient[] = [];

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(policies);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
  });
  afterAll(async () => {
    await server?.stop();
  });

  function client(token?: () => string) {
    const c = realtimeClient(server, { token });
    clients.push(c);
    return c;
  }

  async function asUser(sub: string, expiresIn: string | number = '1h') {
    const token = await signUserToken(server, sub, { expiresIn });
    return withToken(client(() => token));
  }

  async function team(members: { user: string; canWrite: boolean }[]) {
    const topic = `team-${randomUUID()}`;
    for (const m of members)
      await server.deps.db.query(
        'insert into public.rt_team_members (user_id, topic, can_write) values ($1, $2, $3)',
        [m.user, topic, m.canWrite],
      );
    return topic;
  }

  /** Every status the channel reports, in order. */
  function statuses(channel: RealtimeChannel): Inbox<Status> {
    const inbox = new Inbox<Status>();
    channel.subscribe((status, error) => inbox.push({ status, error }));
    return inbox;
  }

  it('joins with a user token and refuses forged, expired and malformed ones', async () => {
    await joined((await asUser(writer)).channel(`room-${randomUUID()}`));

    const { privateKey } = await jose.generateKeyPair('ES256');
    const forged = await new jose.SignJWT({ role: 'authenticated', sub: writer })
      .setProtectedHeader({ alg: 'ES256', kid: server.deps.keys.current.kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    const expired = await signUserToken(server, writer, { expiresIn: -10 });
    // Another deployment's token: its own key, which this one never published.
    const elsewhere = await jose.generateKeyPair('ES256');
    const otherDeployment = await new jose.SignJWT({ role: 'authenticated', sub: writer })
      .setProtectedHeader({ alg: 'ES256', kid: randomUUID(), typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(elsewhere.privateKey);
    const cases = [
      [forged, 'JwtSignatureError: Failed to validate JWT signature'],
      [otherDeployment, 'JwtSignatureError: Failed to validate JWT signature'],
      [expired, 'InvalidJWTToken: Token has expired'],
      ['not-a-jwt', 'MalformedJWT: The token provided is not a valid JWT'],
    ] as const;
    for (const [token, message] of cases) {
      const c = await withToken(client(() => token));
      const result = await subscribe(c.channel(`room-${randomUUID()}`));
      expect(result.status, message).toBe('CHANNEL_ERROR');
      expect(result.error?.message).toBe(message);
    }
  });

  it('closes the channel with a system message when its token expires', async () => {
    const channel = (await asUser(writer, '2s')).channel(`room-${randomUUID()}`);
    const system = new Inbox<{ status: string; message: string }>();
    channel.on('system', {}, system.push);
    const reported = statuses(channel);
    expect((await reported.next()).status).toBe('SUBSCRIBED');

    expect(await system.next()).toMatchObject({ status: 'error', message: 'Token has expired' });
    expect((await reported.next()).status).toBe('CLOSED');
  });

  it('lets members of a private channel talk and keeps readers from sending', async () => {
    const topic = await team([
      { user: writer, canWrite: true },
      { user: reader, canWrite: false },
    ]);
    const readerInbox = new Inbox<{ event: string; payload: unknown }>();
    const writerInbox = new Inbox<{ event: string; payload: unknown }>();
    const publicInbox = new Inbox<{ event: string; payload: unknown }>();
    const config = { config: { private: true, broadcast: { ack: true } } };
    const writerChannel = await joined(
      (await asUser(writer))
        .channel(topic, config)
        .on('broadcast', { event: 'm' }, writerInbox.push),
    );
    const readerChannel = await joined(
      (await asUser(reader))
        .channel(topic, config)
        .on('broadcast', { event: 'm' }, readerInbox.push),
    );
    await joined(client().channel(topic).on('broadcast', { event: 'm' }, publicInbox.push));

    expect(await writerChannel.send({ type: 'broadcast', event: 'm', payload: { n: 1 } })).toBe(
      'ok',
    );
    expect((await readerInbox.next()).payload).toEqual({ n: 1 });
    expect(await readerChannel.send({ type: 'broadcast', event: 'm', payload: { n: 2 } })).toBe(
      'error',
    );
    // The writer's ack'd send reaches the reader only after the reader's refused one was handled.
    expect(await writerChannel.send({ type: 'broadcast', event: 'm', payload: { n: 3 } })).toBe(
      'ok',
    );
    expect((await readerInbox.next()).payload).toEqual({ n: 3 });
    expect(writerInbox.pending).toEqual([]);
    expect(publicInbox.pending).toEqual([]);
  });

  it('refuses a private channel to a user no policy lets read it, and to anon', async () => {
    const topic = await team([{ user: writer, canWrite: true }]);
    const expected = `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`;
    for (const c of [await asUser(outsider), client()]) {
      const result = await subscribe(c.channel(topic, { config: { private: true } }));
      expect(result.status).toBe('CHANNEL_ERROR');
      expect(result.error?.message).toBe(expected);
    }
  });

  it('closes a private channel when a swapped token may no longer read it', async () => {
    const topic = await team([{ user: reader, canWrite: false }]);
    let token = await signUserToken(server, reader);
    const c = await withToken(client(() => token));
    const channel = c.channel(topic, { config: { private: true } });
    const system = new Inbox<{ status: string; message: string }>();
    channel.on('system', {}, system.push);
    const reported = statuses(channel);
    expect((await reported.next()).status).toBe('SUBSCRIBED');

    token = await signUserToken(server, outsider);
    await c.realtime.setAuth();

    expect(await system.next()).toMatchObject({
      status: 'error',
      message: `You no longer have permission to read from this Channel topic: ${topic}`,
    });
    expect((await reported.next()).status).toBe('CLOSED');
  });
});
