import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

describe.each(databaseKinds)('request log and counters on %s', (kind) => {
  const lines: string[] = [];
  let server: TestServer;

  beforeAll(async () => {
    const log = createLogger('info', (line) => lines.push(line));
    server = await startTestServer(kind, {}, { log });
  });
  afterAll(() => server?.stop());

  it('logs one structured line per request without tokens, keys or query strings', async () => {
    const { anonKey, serviceRoleKey } = server.deps.keys;
    lines.length = 0;
    const responses = await Promise.all([
      fetch(`${server.url}/functions/v1/health?secret=hunter2`, {
        headers: { apikey: anonKey, authorization: `Bearer ${anonKey}` },
      }),
      fetch(`${server.url}/storage/v1/bucket?search=private-term`, {
        headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
      }),
      fetch(`${server.url}/storage/v1/object/sign/a/b.txt?token=${anonKey}`),
    ]);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    const requests = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request');
    expect(requests).toHaveLength(3);
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          method: 'GET',
          path: '/functions/v1/health',
          status: 200,
          role: 'anon',
          duration_ms: expect.any(Number),
          service: 'functions',
        }),
        expect.objectContaining({
          path: '/storage/v1/bucket',
          role: 'service_role',
          service: 'storage',
        }),
        expect.objectContaining({ path: '/storage/v1/object/sign/a/b.txt', status: 400 }),
      ]),
    );
    const text = lines.join('\n');
    for (const secret of [anonKey, serviceRoleKey, 'hunter2', 'private-term', 'secret=', 'token='])
      expect(text).not.toContain(secret);
  });

  it('counts requests per service and flushes them to platform.request_metrics', async () => {
    const metrics = server.deps.metrics;
    await metrics.flush(server.deps.db);
    const before = await server.deps.db.query<{ service: string; requests: number }>(
      `select service, sum(requests)::int as requests from platform.request_metrics group by service`,
    );
    const count = (rows: { service: string; requests: number }[], service: string) =>
      rows.find((r) => r.service === service)?.requests ?? 0;

    const anonKey = server.deps.keys.anonKey;
    for (let i = 0; i < 4; i++)
      await (
        await fetch(`${server.url}/functions/v1/health`, { headers: { apikey: anonKey } })
      ).text();
    await (await fetch(`${server.url}/storage/v1/object/public/none/x.txt`)).text();
    await (await fetch(`${server.url}/no-such-page`)).text();

    const live = metrics.snapshot().filter((row) => row.service === 'functions');
    expect(live.at(-1)).toMatchObject({ service: 'functions', p50_ms: expect.any(Number) });

    await metrics.flush(server.deps.db);
    const after = await server.deps.db.query<{ service: string; requests: number }>(
      `select service, sum(requests)::int as requests from platform.request_metrics group by service`,
    );
    expect(count(after.rows, 'functions') - count(before.rows, 'functions')).toBe(4);
    expect(count(after.rows, 'storage') - count(before.rows, 'storage')).toBe(1);
    expect(after.rows.map((r) => r.service)).not.toContain('web');

    const { rows } = await server.deps.db.query<{
      minute: Date;
      requests: number;
      errors: number;
      p50_ms: number;
      p99_ms: number;
    }>(
      `select minute, requests, errors, p50_ms, p99_ms from platform.request_metrics
        where service = 'functions' order by minute desc limit 1`,
    );
    expect(rows[0]!.minute.getUTCSeconds()).toBe(0);
    expect(rows[0]!.p50_ms).toBeGreaterThan(0);
    expect(rows[0]!.p99_ms).toBeGreaterThanOrEqual(rows[0]!.p50_ms);
    expect(rows[0]!.errors).toBe(0);

    // A second flush with nothing new changes nothing.
    await metrics.flush(server.deps.db);
    const again = await server.deps.db.query<{ service: string; requests: number }>(
      `select service, sum(requests)::int as requests from platform.request_metrics group by service`,
    );
    expect(again.rows).toEqual(after.rows);
  });
});

describe.each(databaseKinds)('per-key rate limit on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { API_RATE_LIMIT_PER_SECOND: '5' });
  });
  afterAll(() => server?.stop());

  it('answers 429 with Retry-After past the limit, per API key', async () => {
    const call = (key: string) =>
      fetch(`${server.url}/functions/v1/health`, { headers: { apikey: key } });
    const callStorage = (key: string) =>
      fetch(`${server.url}/storage/v1/bucket`, { headers: { apikey: key } });
    const started = performance.now();
    // One allowance per key across services: functions and storage calls draw on it alike.
    // Concurrent waves, each twice the last, until one call is refused: on a loaded machine a wave
    // of 12 can take longer than the bucket needs to refill, and then every call is allowed.
    const burst: Response[] = [];
    for (let size = 12; size <= 384 && !burst.some((r) => r.status === 429); size *= 2) {
      burst.push(
        ...(await Promise.all(
          Array.from({ length: size }, (_, i) => (i % 2 ? callStorage : call)(server.anonKey)),
        )),
      );
    }
    const elapsedSeconds = (performance.now() - started) / 1000;
    const allowed = burst.filter((r) => r.status === 200).length;
    // A full bucket of 5, plus what refilled at 5/s while the burst was in flight.
    expect(allowed).toBeGreaterThanOrEqual(5);
    expect(allowed).toBeLessThanOrEqual(5 + Math.ceil(elapsedSeconds * 5));
    expect(burst.filter((r) => r.status === 429).length).toBe(burst.length - allowed);
    const limited = burst.find((r) => r.status === 429);
    if (!limited) throw new Error(`all ${burst.length} calls were allowed at 5 per second`);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('access-control-allow-origin')).toBe('*');
    expect(await limited.json()).toEqual({
      statusCode: '429',
      code: 'over_request_rate_limit',
      error: 'Too Many Requests',
      message:
        'Rate limit exceeded: at most 5 requests per second per API key or user. Retry after 1 s.',
    });
    await Promise.all(burst.map((r) => r.arrayBuffer().catch(() => undefined)));

    // Another key has its own allowance, and so does each signed-in user of the shared anon key.
    expect((await call(server.serviceRoleKey)).status).toBe(200);
    const userToken = await signUserToken(server, randomUUID());
    const asUser = await fetch(`${server.url}/functions/v1/health`, {
      headers: { apikey: server.anonKey, authorization: `Bearer ${userToken}` },
    });
    expect(asUser.status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await call(server.anonKey)).status).toBe(200);
    // Pages, /health and keyless downloads are not per-key traffic and are never limited.
    for (let i = 0; i < 8; i++) expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const keyless = await Promise.all(
      Array.from({ length: 8 }, () => fetch(`${server.url}/storage/v1/object/public/none/x.txt`)),
    );
    expect(keyless.map((r) => r.status)).toEqual(Array(8).fill(404));
  });
});
