/**
 * On PostgreSQL with wal_level=logical (the test cluster's setting), postgres changes come from
 * a logical replication slot of each gateway process (decision 0304), not from the triggers:
 * a change made with triggers switched off still arrives, the slot is a temporary pgoutput one,
 * its WAL is acknowledged, it comes back after its connection is cut, and every process
 * delivers once to its own subscribers. A server without logical replication falls back to
 * the triggers and says so once. PGlite has no replication: realtime-postgres-changes.test.ts
 * covers its triggers.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { createLogger } from '../../src/server/logger';
import { startServer, type RunningServer } from '../../src/server/start';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { Inbox, joined, realtimeClient, withToken } from '../support/realtime';
import { startTestServer, type TestServer } from '../support/test-server';

const fixture = `
create table public.rt_wal (id int primary key, note text);
select realtime.enable_changes('public.rt_wal');

create table public.rt_types (
  id bigint primary key,
  at timestamptz not null,
  day date,
  amount numeric,
  ratio double precision,
  done boolean,
  tags text[],
  doc jsonb,
  meta json,
  ref uuid,
  blob bytea,
  body text
);
select realtime.enable_changes('public.rt_types');
`;

type Change = {
  eventType: string;
  table: string;
  commit_timestamp: string;
  new: Record<string, unknown>;
  old: Record<string, unknown>;
};

interface Slot {
  slot_name: string;
  plugin: string;
  slot_type: string;
  temporary: boolean;
  active: boolean;
  active_pid: number | null;
}

function serverConfig(databaseUrl: string) {
  return loadConfig(
    {},
    {
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-test-')),
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: '3',
      BETA_GATE: 'false',
    },
  );
}

function serviceClient(server: Pick<RunningServer, 'url' | 'deps'>): Promise<SupabaseClient> {
  const { anonKey, serviceRoleKey } = server.deps.keys;
  return withToken(realtimeClient({ url: server.url, anonKey }, { token: () => serviceRoleKey }));
}

async function subscribeTo(client: SupabaseClient, table: string): Promise<Inbox<Change>> {
  const inbox = new Inbox<Change>();
  await joined(
    client
      .channel(`c-${randomUUID()}`)
      .on('postgres_changes', { event: '*', schema: 'public', table }, inbox.push),
  );
  return inbox;
}

describe('realtime postgres changes by logical replication (postgres)', () => {
  let server: TestServer;
  /** A connection of its own, as another program writing to the database would have. */
  let direct: pg.Client;
  const clients: SupabaseClient[] = [];
  let nextId = 1;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    await server.deps.db.exec(fixture);
    direct = new pg.Client({ connectionString: server.deps.config.databaseUrl });
    await direct.connect();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.removeAllChannels()));
  });
  afterAll(async () => {
    await direct?.end();
    await server?.stop();
  });

  async function client() {
    const c = await serviceClient(server);
    clients.push(c);
    return c;
  }

  async function slots(): Promise<Slot[]> {
    const { rows } = await direct.query<Slot>(
      `select slot_name, plugin, slot_type, temporary, active, active_pid
         from pg_replication_slots where database = current_database()`,
    );
    return rows;
  }

  it('streams from a temporary pgoutput slot of its own once a subscriber joins', async () => {
    await subscribeTo(await client(), 'rt_wal');
    const [slot, ...others] = await slots();
    expect(others).toEqual([]);
    expect(slot).toMatchObject({
      plugin: 'pgoutput',
      slot_type: 'logical',
      temporary: true,
      active: true,
    });
    expect(slot!.slot_name).toMatch(/^realtime_/);
    const { rows } = await direct.query<{ tablename: string }>(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime'`,
    );
    expect(rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(['rt_wal', 'rt_types']));
  });

  it('delivers a change made with every trigger switched off', async () => {
    const inbox = await subscribeTo(await client(), 'rt_wal');
    const id = nextId++;
    await direct.query('begin');
    // A replication apply or a restore runs like this: no ordinary trigger fires.
    await direct.query(`set local session_replication_role = replica`);
    await direct.query('insert into public.rt_wal (id, note) values ($1, $2)', [id, 'no trigger']);
    await direct.query('commit');
    expect(await inbox.next()).toMatchObject({
      eventType: 'INSERT',
      table: 'rt_wal',
      new: { id, note: 'no trigger' },
    });
  });

  it('sends every column as the triggers did (to_jsonb), however large the row', async () => {
    const inbox = await subscribeTo(await client(), 'rt_types');
    const id = nextId++;
    // Incompressible, so PostgreSQL stores it out of line (TOAST).
    const body = randomBytes(15_000).toString('base64');
    await direct.query(
      `insert into public.rt_types values
         ($1, '2026-11-24 03:04:05.123456+01', '2026-02-03', 12.50, 0.25, true, '{a,"b c"}',
          '{"k": [1, {"n": null}]}', '{"z": 1,  "a": 2}', '5f0c7a44-8a3c-4b1e-9d0f-2b8f4a1d6e11',
          '\\x0102ff', $2)`,
      [id, body],
    );
    const { rows } = await direct.query<{ row: Record<string, unknown> }>(
      'select to_jsonb(t) as row from public.rt_types t where id = $1',
      [id],
    );
    const insert = await inbox.next();
    expect(insert.new).toEqual(rows[0]!.row);
    expect(insert.commit_timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

    // The unchanged large value is not in the WAL of an update: the server reads the row.
    await direct.query('update public.rt_types set done = false where id = $1', [id]);
    const update = await inbox.next();
    expect(update).toMatchObject({ eventType: 'UPDATE', new: { id, done: false, body } });
    expect(update.old).toEqual({ id });
  });

  it('acknowledges what it handled, so the server releases the WAL', async () => {
    const inbox = await subscribeTo(await client(), 'rt_wal');
    const before = await direct.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const id = nextId++;
    await direct.query('insert into public.rt_wal (id) values ($1)', [id]);
    await inbox.next();
    await expect
      .poll(async () => {
        const { rows } = await direct.query<{ released: boolean }>(
          `select bool_and(confirmed_flush_lsn > $1::pg_lsn) as released
             from pg_replication_slots where database = current_database()`,
          [before.rows[0]!.lsn],
        );
        return rows[0]!.released;
      })
      .toBe(true);
  });

  // Making a logical slot waits for every transaction running anywhere on the server to end;
  // on the test cluster other files' transactions run meanwhile, so this may take a while.
  it('opens a new slot after its replication connection is cut, and delivers again', async () => {
    const inbox = await subscribeTo(await client(), 'rt_wal');
    const [first] = await slots();
    await direct.query('select pg_terminate_backend($1)', [first!.active_pid]);
    await expect
      .poll(async () => (await slots()).filter((s) => s.active).map((s) => s.slot_name), {
        timeout: 90_000,
      })
      .toEqual([expect.not.stringMatching(first!.slot_name)]);
    const id = nextId++;
    await direct.query('insert into public.rt_wal (id, note) values ($1, $2)', [id, 'after']);
    expect(await inbox.until((c) => c.new.id === id)).toMatchObject({ new: { note: 'after' } });
  }, 120_000);

  it('delivers a change once to each subscriber when several processes serve the database', async () => {
    const second = await startServer(serverConfig(server.deps.config.databaseUrl!));
    try {
      const onFirst = await subscribeTo(await client(), 'rt_wal');
      const other = await serviceClient(second);
      try {
        const onSecond = await subscribeTo(other, 'rt_wal');
        expect((await slots()).filter((s) => s.active)).toHaveLength(2);
        const [a, b] = [nextId++, nextId++];
        await direct.query('insert into public.rt_wal (id) values ($1)', [a]);
        await direct.query('insert into public.rt_wal (id) values ($1)', [b]);
        for (const inbox of [onFirst, onSecond]) {
          // In commit order: the second change arriving next shows the first came only once.
          expect((await inbox.next()).new.id).toBe(a);
          expect((await inbox.next()).new.id).toBe(b);
        }
      } finally {
        await other.removeAllChannels();
      }
    } finally {
      await second.close();
      fs.rmSync(second.deps.config.dataDir, { recursive: true, force: true });
    }
  });
});

describe('realtime postgres changes without logical replication (postgres, wal_level=replica)', () => {
  let cluster: PostgresCluster;
  let server: RunningServer;
  const lines: string[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster({ wal_level: 'replica' });
    const config = serverConfig(await cluster.createDatabase('realtime_fallback'));
    server = await startServer(config, { log: createLogger('warn', (line) => lines.push(line)) });
    await server.deps.db.exec(fixture);
  });
  afterAll(async () => {
    await server?.close();
    if (server) fs.rmSync(server.deps.config.dataDir, { recursive: true, force: true });
    await cluster?.stop();
  });

  it('says once that it uses triggers and NOTIFY, and delivers through them', async () => {
    const said = lines.filter((line) => line.includes('wal_level=replica'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('set wal_level=logical');

    const c = await serviceClient(server);
    try {
      const inbox = await subscribeTo(c, 'rt_wal');
      await server.deps.db.query(`insert into public.rt_wal (id, note) values (1, 'notified')`);
      expect(await inbox.next()).toMatchObject({ eventType: 'INSERT', new: { id: 1 } });
      const { rows } = await server.deps.db.query<{ count: number }>(
        'select count(*)::int as count from pg_replication_slots',
      );
      expect(rows[0]!.count).toBe(0);
    } finally {
      await c.removeAllChannels();
    }
  });
});
