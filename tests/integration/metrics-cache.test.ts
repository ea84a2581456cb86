/**
 * The public metrics call, polled by every visitor, is answered from a shared cache: many
 * concurrent calls cost one database call, and the answer is the RPC's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

describe.each(databaseKinds)('public metrics cache on %s', (kind) => {
  let server: TestServer;
  /** Statements the REST service ran that call the metrics function. */
  let metricsCalls = 0;

  beforeAll(async () => {
    // The burst below is the whole of the anonymous key's 100 a second: without a higher limit
    // the calls right after it are refused with 429 whenever the burst ends within a second.
    server = await startTestServer(kind, { API_RATE_LIMIT_PER_SECOND: '100000' });
    const db = server.deps.db;
    const queryAsRole = db.queryAsRole.bind(db);
    db.queryAsRole = (claims, sql, params, options) => {
      if (sql.includes('get_public_platform_metrics')) metricsCalls += 1;
      return queryAsRole(claims, sql, params, options);
    };
  });
  afterAll(() => server?.stop());

  function post(headers: Record<string, string> = {}, query = '') {
    return fetch(`${server.url}/rest/v1/rpc/get_public_platform_metrics${query}`, {
      method: 'POST',
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${server.anonKey}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: '{}',
    });
  }

  it('answers 100 concurrent supabase-js calls with one database call per second', async () => {
    const before = metricsCalls;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => server.anon().rpc('get_public_platform_metrics')),
    );
    // One call, plus one more for each second the burst took to serve (an entry lives 1 s): on
    // an idle machine that is one or two; without the cache it is 100.
    const seconds = Math.ceil((performance.now() - started) / 1000);
    expect(metricsCalls - before).toBeGreaterThanOrEqual(1);
    expect(metricsCalls - before).toBeLessThanOrEqual(1 + seconds);
    for (const answer of answers) {
      expect(answer.error).toBeNull();
      expect(answer.status).toBe(200);
      expect(answer.data).toMatchObject({
        totals: expect.any(Object),
        generated_at: expect.any(String),
      });
    }
  });

  it('replays the RPC answer exactly: status, headers and body', async () => {
    const first = await post();
    const second = await post();
    expect(second.status).toBe(first.status);
    const headers = (response: Response) =>
      [...response.headers.entries()].filter(([name]) => name !== 'date');
    expect(headers(second)).toEqual(headers(first));
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await second.text()).toBe(await first.text());
  });

  it('still refuses a caller with a bad key', async () => {
    await post();
    const refused = await post({ authorization: 'Bearer not-a-token' });
    expect(refused.status).toBe(401);
  });

  it('sends calls with options, or asking for fresh figures, to the database', async () => {
    await post();
    const before = metricsCalls;
    expect((await post({ prefer: 'count=exact' })).status).toBe(200);
    expect((await post({ 'cache-control': 'no-cache' })).status).toBe(200);
    expect(metricsCalls).toBe(before + 2);
  });
});
