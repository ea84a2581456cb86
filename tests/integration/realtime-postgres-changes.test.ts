/**
 * Postgres changes through supabase-js: each event and filter, old records by replica
 * identity, and RLS per subscriber. "Nothing else arrived" is shown with a later change the
 * subscriber does receive: changes reach a connection in commit order.
 */
import { randomUUID } from 'node:crypto';
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Inbox, joined, realtimeClient, subscribe, withToken } from '../support/realtime';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

const alice = randomUUID();
const bob = randomUUID();

const fixture = `
create table public.rt_plain (id int primary key, note text);
select realtime.enable_changes('public.rt_plain');

create table public.rt_posts (
  id int primary key,
  author uuid not null,
  title text not null,
  published boolean not null default false
);
alter table public.rt_posts enable row level security;
alter table public.rt_posts replica identity full;
create policy readable on public.rt_posts for select to authenticated
  using (published or author = auth.uid());
select realtime.enable_changes('public.rt_posts');

create table public.rt_owned (id int primary key, owner uuid not null, note text);
alter table public.rt_owned enable row level security;
create policy own on public.rt_owned for select to authenticated using (owner = auth.uid());
select realtime.enable_changes('public.rt_owned');

create table public.rt_full (id int primary key, note text);
alter table public.rt_full replica identity full;
select realtime.enable_changes('public.rt_full');

create table public.rt_secret (id int primary key, secret text);
alter table public.rt_secret enable row level security;
select realtime.enable_changes('public.rt_secret');

create table public.rt_quiet (id int primary key);
`;

type Change = {
  eventType: string;
  schema: string;
  table: string;
  commit_timestamp: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
};

describe.each(databaseKinds)('realtime postgres changes (%s)', (kind) => {
  let server: TestServer;
  const clients: SupabaseClient[] = [];
  let nextId = 1;

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

  async function as(sub?: string) {
    const token = sub ? await signUserToken(server, sub) : server.serviceRoleKey;
    const c = realtimeClient(server, { token: () => token });
    clients.push(c);
    return withToken(c);
  }

  /** Each statement commits on its own, so each is one change notification. */
  const sql = (text: string, params: unknown[] = []) => server.deps.db.query(text, params);

  it('delivers INSERT, UPDATE and DELETE with the payload supabase-js expects', async () => {
    const id = nextId++;
    const all = new Inbox<Change>();
    const updates = new Inbox<Change>();
    await joined(
      (await as())
        .channel(`c-${randomUUID()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_plain' }, all.push)
        .on(
          'postgres_changes',
          { event: 'UPDATE', schema: 'public', table: 'rt_plain' },
          updates.push,
        ),
    );

    await sql('insert into public.rt_plain (id, note) values ($1, $2)', [id, 'first']);
    await sql('update public.rt_plain set note = $2 where id = $1', [id, 'second']);
    await sql('delete from public.rt_plain where id = $1', [id]);

    const insert = await all.next();
    expect(insert).toMatchObject({
      eventType: 'INSERT',
      schema: 'public',
      table: 'rt_plain',
      new: { id, note: 'first' },
      old: {},
    });
    expect(Number.isNaN(Date.parse(insert.commit_timestamp))).toBe(false);
    // Default replica identity: the old record is the key.
    expect(await all.next()).toMatchObject({
      eventType: 'UPDATE',
      new: { id, note: 'second' },
      old: { id },
    });
    expect(await all.next()).toMatchObject({ eventType: 'DELETE', new: {}, old: { id } });
    expect((await updates.next()).new).toEqual({ id, note: 'second' });
    expect(updates.pending).toEqual([]);
  });

  it('applies eq, neq, lt, lte, gt, gte and in filters', async () => {
    const base = (nextId += 10) * 100;
    const filters = {
      'id=eq.3': [3],
      'id=neq.3': [1, 2, 4, 5, 6, 99],
      'id=lt.3': [1, 2],
      'id=lte.3': [1, 2, 3],
      'id=gt.4': [5, 6, 99],
      'id=gte.5': [5, 6, 99],
      'id=in.(2,4)': [2, 4],
    };
    const c = await as();
    const seen = new Map<string, number[]>();
    const done = new Inbox<void>();
    let channel: RealtimeChannel = c.channel(`c-${randomUUID()}`);
    for (const filter of Object.keys(filters)) {
      seen.set(filter, []);
      const offset = filter.replace(/\d+/g, (n) => String(base + Number(n)));
      channel = channel.on(
        'postgres_changes',
        { event: 'INSERT', schema: 'public', table: 'rt_plain', filter: offset },
        (change: Change) => seen.get(filter)!.push((change.new.id as number) - base),
      );
    }
    channel = channel.on(
      'postgres_changes',
      { event: 'INSERT', schema: 'public', table: 'rt_plain', filter: `id=eq.${base + 99}` },
      () => done.push(),
    );
    await joined(channel);

    for (const n of [1, 2, 3, 4, 5, 6, 99])
      await sql('insert into public.rt_plain (id) values ($1)', [base + n]);
    await done.next();

    expect(Object.fromEntries(seen)).toEqual(filters);
  });

  it('delivers a change only to subscribers whose token can select the row', async () => {
    const id = nextId++;
    const aliceInbox = new Inbox<Change>();
    const bobInbox = new Inbox<Change>();
    for (const [user, inbox] of [
      [alice, aliceInbox],
      [bob, bobInbox],
    ] as const)
      await joined(
        (await as(user))
          .channel(`c-${randomUUID()}`)
          .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_posts' }, inbox.push),
      );

    await sql(`insert into public.rt_posts (id, author, title) values ($1, $2, 'draft')`, [
      id,
      bob,
    ]);
    // Bob sees his draft. A change whose row is gone before its check may be dropped, so the row
    // stays until his insert has arrived (under load the delete could otherwise overtake it).
    expect(await bobInbox.next()).toMatchObject({ eventType: 'INSERT', new: { id } });
    await sql('update public.rt_posts set published = true where id = $1', [id]);
    await sql('delete from public.rt_posts where id = $1', [id]);

    expect(await bobInbox.until((c) => c.eventType === 'DELETE')).toMatchObject({ old: { id } });
    // Alice only ever sees the row published. As in Supabase, the update that showed it to her
    // carries its whole old row (replica identity full); the delete only the key.
    const seen: Change[] = [];
    do seen.push(await aliceInbox.next());
    while (seen.at(-1)!.eventType !== 'DELETE');
    for (const change of seen) {
      if (change.eventType !== 'DELETE') expect(change.new).toMatchObject({ published: true });
      if (change.eventType === 'UPDATE')
        expect(change.old).toEqual({ id, author: bob, title: 'draft', published: false });
      if (change.eventType === 'DELETE') expect(change.old).toEqual({ id });
    }
  });

  it('sends old records of an RLS table as Supabase does: by replica identity, deletes by key', async () => {
    const id = nextId++;
    const full = new Inbox<Change>();
    const keyed = new Inbox<Change>();
    await joined(
      (await as(alice))
        .channel(`c-${randomUUID()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_posts' }, full.push)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_owned' }, keyed.push),
    );
    await sql(`insert into public.rt_posts (id, author, title) values ($1, $2, 'mine')`, [
      id,
      alice,
    ]);
    await sql(`insert into public.rt_owned (id, owner, note) values ($1, $2, 'mine')`, [id, alice]);
    expect(await full.next()).toMatchObject({ eventType: 'INSERT', old: {} });
    expect(await keyed.next()).toMatchObject({ eventType: 'INSERT', old: {} });

    await sql(`update public.rt_posts set title = 'renamed' where id = $1`, [id]);
    await sql(`update public.rt_owned set note = 'renamed' where id = $1`, [id]);
    expect(await full.next()).toMatchObject({
      eventType: 'UPDATE',
      new: { id, title: 'renamed' },
      old: { id, author: alice, title: 'mine', published: false },
    });
    expect(await keyed.next()).toMatchObject({
      eventType: 'UPDATE',
      new: { id, note: 'renamed' },
      old: { id },
    });

    await sql('delete from public.rt_posts where id = $1', [id]);
    await sql('delete from public.rt_owned where id = $1', [id]);
    expect(await full.next()).toMatchObject({ eventType: 'DELETE', new: {}, old: { id } });
    expect(await keyed.next()).toMatchObject({ eventType: 'DELETE', new: {}, old: { id } });
  });

  it('sends the whole old row of a table with replica identity full', async () => {
    const id = nextId++;
    const inbox = new Inbox<Change>();
    await joined(
      (await as(alice))
        .channel(`c-${randomUUID()}`)
        .on(
          'postgres_changes',
          { event: 'UPDATE', schema: 'public', table: 'rt_full' },
          inbox.push,
        ),
    );
    await sql(`insert into public.rt_full (id, note) values ($1, 'before')`, [id]);
    await sql(`update public.rt_full set note = 'after' where id = $1`, [id]);

    expect(await inbox.next()).toMatchObject({
      new: { id, note: 'after' },
      old: { id, note: 'before' },
    });
  });

  it('delivers nothing from a table the subscriber may not read, though the service role sees it', async () => {
    const id = nextId++;
    const aliceInbox = new Inbox<Change>();
    const serviceInbox = new Inbox<Change>();
    const bind = (channel: RealtimeChannel, inbox: Inbox<Change>) =>
      channel
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_secret' },
          inbox.push,
        )
        .on(
          'postgres_changes',
          { event: 'INSERT', schema: 'public', table: 'rt_plain' },
          inbox.push,
        );
    await joined(bind((await as(alice)).channel(`c-${randomUUID()}`), aliceInbox));
    await joined(bind((await as()).channel(`c-${randomUUID()}`), serviceInbox));

    await sql(`insert into public.rt_secret (id, secret) values ($1, 'hidden')`, [id]);
    await sql('insert into public.rt_plain (id) values ($1)', [id]);

    expect(await serviceInbox.next()).toMatchObject({
      table: 'rt_secret',
      new: { secret: 'hidden' },
    });
    expect(await aliceInbox.next()).toMatchObject({ table: 'rt_plain', new: { id } });
  });

  it('says so when a table does not publish its changes, and refuses bad filters', async () => {
    const system = new Inbox<{ extension: string; status: string; message: string }>();
    await joined(
      (await as())
        .channel(`c-${randomUUID()}`)
        .on('postgres_changes', { event: '*', schema: 'public', table: 'rt_quiet' }, () => {})
        .on('system', {}, system.push),
    );
    expect(await system.next()).toMatchObject({
      extension: 'postgres_changes',
      status: 'error',
      message: expect.stringContaining('[schema: public, table: rt_quiet]'),
    });

    const refused = await subscribe(
      (await as())
        .channel(`c-${randomUUID()}`)
        .on(
          'postgres_changes',
          { event: '*', schema: 'public', table: 'rt_plain', filter: 'id=like.1' },
          () => {},
        ),
    );
    expect(refused.status).toBe('CHANNEL_ERROR');
    expect(refused.error?.message).toMatch(/^RealtimeDisabledForConfiguration: Invalid filter/);
  });
});
