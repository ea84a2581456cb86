/**
 * PostgreSQL connections that die under the gateway: backends terminated by an administrator
 * while writers run, and the whole server stopped and started again. The process must live
 * (an unhandled `error` event on a checked-out client used to end it), a request that lost its
 * connection must get a 503 with a clear message, `/health` must say the database is down, and
 * requests must succeed again once it is back. PostgreSQL only: PGlite has no connections.
 */
import fs from 'node:fs';
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { signUserToken, startTestServer, type TestServer } from '../support/test-server';

const UNAVAILABLE = /database is unavailable/;

/** Polls `check` until it holds; the test's own timeout bounds the wait. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function health(server: TestServer) {
  const response = await fetch(`${server.url}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function signedInWriter(server: TestServer, email: string): Promise<SupabaseClient> {
  // After a test terminates the backends, an idle pooled connection may not have heard yet
  // that it is gone: the set-up's first query on it fails before running, so it is retried.
  const insert = () =>
    server.deps.db.query<{ id: string }>(
      'insert into auth.users (email) values ($1) returning id',
      [email],
    );
  let inserted: Awaited<ReturnType<typeof insert>> | undefined;
  for (let attempt = 1; !inserted; attempt += 1) {
    try {
      inserted = await insert();
    } catch (error) {
      if (attempt === 5 || !UNAVAILABLE.test((error as Error).message)) throw error;
    }
  }
  const { rows } = inserted;
  return server.withToken(await signUserToken(server, rows[0]!.id, { expiresIn: '10m' }));
}

interface Outcome {
  title: string;
  status: number;
  code?: string;
  message?: string;
}

describe('PostgreSQL backends terminated while writers run', () => {
  let server: TestServer;
  let admin: pg.Client;

  beforeAll(async () => {
    server = await startTestServer('postgres');
    admin = new pg.Client({ connectionString: server.deps.config.databaseUrl });
    await admin.connect();
    // A note titled "slow…" takes its time, so a test can cut the connection mid-insert.
    await admin.query(`
      create function public.slow_note() returns trigger language plpgsql as $$
      begin
        if new.title like 'slow%' then perform pg_sleep(30); end if;
        return new;
      end
      $$;
      create trigger slow_note before insert on public.notes
        for each row execute function public.slow_note();
    `);
  });
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });

  /** Ends every connection the gateway holds to its database. */
  async function terminateGatewayBackends(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(
      `select count(*) filter (where pg_terminate_backend(pid))::int as n
         from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return rows[0]!.n;
  }

  it('fails the request whose connection is cut mid-transaction with a 503 and a clear message', async () => {
    const writer = await signedInWriter(server, 'slow@example.test');
    let settled = false;
    // `.single()` runs in a transaction: the connection is still checked out, awaiting the
    // rollback, when it ends.
    const pending = Promise.resolve(
      writer.from('notes').insert({ title: 'slow, never written' }).select('title').single(),
    ).finally(() => (settled = true));
    await until(async () => {
      if (settled) return true;
      const { rows } = await admin.query(
        `select 1 from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep'
            and pid <> pg_backend_pid()`,
      );
      return rows.length > 0;
    });
    expect(settled).toBe(false);
    expect(await terminateGatewayBackends()).toBeGreaterThan(0);
    const { error, status } = await pending;
    expect(status).toBe(503);
    expect(error).toMatchObject({ code: 'PGRST001', message: expect.stringMatching(UNAVAILABLE) });
  });

  it('lives through repeated terminations under load, loses no acknowledged write and recovers', async () => {
    const writers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((n) => signedInWriter(server, `writer-${n}@example.test`)),
    );
    const outcomes: Outcome[] = [];
    let running = true;
    let sequence = 0;

    async function write(client: SupabaseClient, n: number) {
      while (running) {
        const title = `load-${n}-${sequence++}`;
        // Plain inserts take the one-round-trip path; `.single()` ones a full transaction.
        const result =
          sequence % 2 === 0
            ? await client.from('notes').insert({ title })
            : await client.from('notes').insert({ title }).select('title').single();
        outcomes.push({
          title,
          status: result.status,
          code: result.error?.code,
          message: result.error?.message,
        });
      }
    }

    const load = writers.map((client, n) => write(client, n));
    let terminated = 0;
    for (let round = 0; round < 5; round++) {
      const before = outcomes.length;
      await until(async () => outcomes.length >= before + 10);
      terminated += await terminateGatewayBackends();
    }
    running = false;
    await Promise.all(load);

    expect(terminated).toBeGreaterThanOrEqual(5);
    const failed = outcomes.filter((o) => o.status !== 201);
    for (const failure of failed) {
      expect(failure).toMatchObject({
        status: 503,
        code: 'PGRST001',
        message: expect.stringMatching(UNAVAILABLE),
      });
    }
    const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.title);
    expect(acknowledged.length).toBeGreaterThan(0);
    const { rows } = await admin.query<{ title: string }>(
      `select title from public.notes where title like 'load-%'`,
    );
    const stored = new Set(rows.map((row) => row.title));
    expect(acknowledged.filter((title) => !stored.has(title))).toEqual([]);

    await until(async () => (await health(server)).status === 200);
    const after = await writers[0]!.from('notes').insert({ title: 'after the storm' });
    expect(after.error).toBeNull();
    expect(after.status).toBe(201);
  });
});

describe('the PostgreSQL server stopped and started again', () => {
  let cluster: PostgresCluster;
  let server: TestServer;
  let writer: SupabaseClient;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const setup = new pg.Client({ connectionString: cluster.adminUrl });
    await setup.connect();
    await setup.query('create schema if not exists platform');
    await setup.query(fs.readFileSync('db/platform/0001_roles.sql', 'utf8'));
    await setup.end();
    server = await startTestServer('postgres', {
      DATABASE_URL: await cluster.createDatabase('restarted'),
    });
    writer = await signedInWriter(server, 'restart@example.test');
  });
  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  it('answers 503 while the database is down, reports it in /health, and recovers', async () => {
    expect((await writer.from('notes').insert({ title: 'before' })).status).toBe(201);

    await cluster.halt();

    const write = await writer.from('notes').insert({ title: 'during' });
    expect(write.status).toBe(503);
    expect(write.error).toMatchObject({
      code: 'PGRST001',
      message: expect.stringMatching(UNAVAILABLE),
    });
    const down = await health(server);
    expect(down).toEqual({
      status: 503,
      body: expect.objectContaining({
        status: 'error',
        database: 'postgres',
        database_status: 'down',
        message: expect.stringMatching(UNAVAILABLE),
      }),
    });
    const storage = await fetch(`${server.url}/storage/v1/bucket`, {
      headers: { apikey: server.serviceRoleKey, authorization: `Bearer ${server.serviceRoleKey}` },
    });
    expect(storage.status).toBe(503);
    expect(await storage.json()).toEqual({
      code: 'database_unavailable',
      message: expect.stringMatching(UNAVAILABLE),
    });
    const signIn = await fetch(`${server.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: server.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'restart@example.test', password: 'not-the-password' }),
    });
    expect(signIn.status).toBe(503);

    await cluster.resume();

    await until(async () => (await health(server)).status === 200);
    expect((await health(server)).body).toMatchObject({ status: 'ok', database_status: 'up' });
    const again = await writer.from('notes').insert({ title: 'after' }).select('title').single();
    expect(again.error).toBeNull();
    expect(again.data).toEqual({ title: 'after' });
    const { data } = await writer.from('notes').select('title').order('title');
    expect(data).toEqual([{ title: 'after' }, { title: 'before' }]);
  });
});
