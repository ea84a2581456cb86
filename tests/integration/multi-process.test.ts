/**
 * State that several gateway processes on one database must share: the per-key request
 * limit, sign-outs, data-room PIN attempts and request counters. On PostgreSQL two gateways
 * run on one database; on PGlite (one process by design) both roles are played by the same
 * gateway, so the same assertions show the in-process path.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENDED_SESSIONS_POLL_MS } from '../../src/server/gateway/ops/ended-sessions';
import { createRequestMetrics } from '../../src/server/gateway/ops/metrics';
import { SESSION_ENDED_MESSAGE } from '../../src/server/gateway/ops/verified-tokens';
import { startServer, type RunningServer } from '../../src/server/start';
import { browserLikeClient, uniqueEmail } from './auth-support';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

const PIN = 'shared-pin-42';
/** Low enough that a loaded two-core machine still sends several times the limit. */
const LIMIT = 5;

describe.each(databaseKinds)('state shared by gateway processes on %s', (kind) => {
  let a: TestServer;
  let b: RunningServer;
  /** How many gateway processes serve the database. */
  let processes: number;

  beforeAll(async () => {
    a = await startTestServer(kind, {
      DATA_ROOM_PIN: PIN,
      MAILER_AUTOCONFIRM: 'true',
      API_RATE_LIMIT_PER_SECOND: String(LIMIT),
    });
    if (kind === 'postgres') {
      // A second gateway on the same database, as a second machine behind a load balancer.
      b = await startServer({ ...a.deps.config, port: 0 });
      processes = 2;
    } else {
      b = a;
      processes = 1;
    }
  });
  afterAll(async () => {
    if (b && b !== a) await b.close();
    await a?.stop();
  });

  async function signIn(email: string) {
    const client = browserLikeClient(a);
    const password = 'a long enough passphrase 42';
    const signUp = await client.auth.signUp({ email, password });
    expect(signUp.error).toBeNull();
    return { client, token: signUp.data.session!.access_token };
  }

  const select = (server: RunningServer, token: string) =>
    fetch(`${server.url}/rest/v1/profiles?select=id&limit=1`, {
      headers: { apikey: a.anonKey, authorization: `Bearer ${token}` },
    });

  it("holds a user's request limit across both processes within the stated tolerance", async () => {
    const { token } = await signIn(uniqueEmail('limit'));
    const started = performance.now();
    let admitted = 0;
    let refused = 0;
    // Four seconds of as many requests as the machine sends, half to each process.
    while (performance.now() - started < 4_000) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => select(i % 2 === 0 ? a : b, token)),
      );
      for (const answer of answers) {
        await answer.arrayBuffer();
        if (answer.status === 200) admitted++;
        else if (answer.status === 429) refused++;
        else throw new Error(`unexpected status ${answer.status}`);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    // One token bucket admits the burst (LIMIT) plus LIMIT per second. Each further process
    // may admit what it holds plus one sync interval's refill before it hears of the others
    // (decision 0070: L × 0.1); this allows a full second (L × 1), as a sync
    // may run late on a busy machine. Without the sharing, twice `exact` gets through.
    const exact = LIMIT + LIMIT * seconds;
    const tolerance = (processes - 1) * LIMIT * 2;
    expect(refused).toBeGreaterThan(0);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT);
    expect(admitted).toBeLessThanOrEqual(Math.ceil(exact + tolerance));
  });

  it('refuses a token signed out through one process in the other', async () => {
    const email = uniqueEmail('signout');
    const { client, token } = await signIn(email);
    const other = browserLikeClient(a);
    const second = await other.auth.signInWithPassword({
      email,
      password: 'a long enough passphrase 42',
    });
    expect(second.error).toBeNull();
    const otherToken = second.data.session!.access_token;

    // The second process has verified (and cached) the token before the sign-out.
    expect((await select(b, token)).status).toBe(200);
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();

    // NOTIFY reaches every process within milliseconds, the one that ended the session too
    // (it learns it the same way); the poll bounds the wait.
    for (const server of [b, a]) {
      await vi.waitFor(
        async () => {
          const answer = await select(server, token);
          expect(answer.status).toBe(401);
          expect(((await answer.json()) as { message: string }).message).toBe(
            SESSION_ENDED_MESSAGE,
          );
        },
        { timeout: ENDED_SESSIONS_POLL_MS * 2, interval: 100 },
      );
    }
    // The user's other session is still signed in, on both processes.
    expect((await select(a, otherToken)).status).toBe(200);
    expect((await select(b, otherToken)).status).toBe(200);
  });

  it('counts wrong data-room PINs from both processes against one address', async () => {
    await a.deps.db.query('delete from data_room.pin_attempts');
    const guess = (server: RunningServer, pin: string) =>
      fetch(`${server.url}/functions/v1/data-room-access`, {
        method: 'POST',
        headers: { apikey: a.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ pin }),
      }).then((answer) => answer.status);

    for (const server of [a, b, a, b, a]) expect(await guess(server, 'wrong')).toBe(401);
    expect(await guess(b, 'wrong')).toBe(429);
    expect(await guess(a, PIN)).toBe(429);
    await a.deps.db.query('delete from data_room.pin_attempts');
    expect(await guess(b, PIN)).toBe(200);
  });

  it('adds the request counters of both processes in the metrics', async () => {
    const servers = processes === 2 ? [a, b] : [a];
    const flushAll = () =>
      Promise.all(servers.map((server) => server.deps.metrics.flush(server.deps.db)));
    const restTotal = async () => {
      const { rows } = await a.deps.db.query<{ n: number }>(
        `select coalesce(sum(requests), 0)::int as n from platform.request_metrics
          where service = 'rest'`,
      );
      return rows[0]!.n;
    };
    await flushAll();
    const before = await restTotal();
    // A key per process keeps each under the low request limit of this suite.
    const head = (server: RunningServer, apikey: string) =>
      fetch(`${server.url}/rest/v1/`, { headers: { apikey } }).then((r) => r.arrayBuffer());
    for (let i = 0; i < 3; i++) await head(a, a.serviceRoleKey);
    for (let i = 0; i < 4; i++) await head(b, a.anonKey);
    await flushAll();
    expect((await restTotal()) - before).toBe(7);
  });

  it("keeps latency percentiles of all processes together, not the last flusher's", async () => {
    // Two processes' counters for one minute: most requests fast on one, a few slow on the other.
    const minute = Date.UTC(2001, 0, 1, 12, 0);
    const fast = createRequestMetrics();
    const slow = createRequestMetrics();
    for (let i = 0; i < 95; i++) fast.record('functions', 200, 2, minute);
    for (let i = 0; i < 5; i++) slow.record('functions', 200, 400, minute);
    await fast.flush(a.deps.db);
    await slow.flush(b.deps.db);
    const { rows } = await a.deps.db.query<{
      requests: number;
      p50_ms: number;
      p99_ms: number;
      timed: number;
    }>(
      `select requests, p50_ms, p99_ms,
              (select sum(n) from unnest(latency_histogram) n)::int as timed
         from platform.request_metrics where minute = $1 and service = 'functions'`,
      [new Date(minute).toISOString()],
    );
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.requests).toBe(100);
    expect(row.timed).toBe(100);
    // Histogram buckets are within 4.5 % of the latency they hold (migration 0072).
    expect(row.p50_ms).toBeGreaterThan(2 * 0.95);
    expect(row.p50_ms).toBeLessThan(2 * 1.05);
    expect(row.p99_ms).toBeGreaterThan(400 * 0.95);
    expect(row.p99_ms).toBeLessThan(400 * 1.05);
  });
});
