import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/** The dev mailbox exists in embedded mode only, so these run on PGlite. */
describe('the dev mailbox answers this machine only', () => {
  let direct: TestServer;
  let behindProxy: TestServer;
  beforeAll(async () => {
    direct = await startTestServer('pglite');
    behindProxy = await startTestServer('pglite', { TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await direct?.stop();
    await behindProxy?.stop();
  });

  const get = (server: TestServer, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/_dev/mailbox/messages.json`, { headers });

  it('serves a loopback client', async () => {
    const response = await get(direct);
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
    expect((await fetch(`${direct.url}/_dev/mailbox`)).status).toBe(200);
  });

  it('refuses a request that came through a proxy it was not told to trust', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.9' },
    ]) {
      const response = await get(direct, headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(((await response.json()) as { message: string }).message).toMatch(
        /only requests from this machine \(loopback\), not through a proxy/,
      );
    }
  });

  it('behind a trusted proxy, serves only clients the proxy saw on loopback', async () => {
    expect((await get(behindProxy, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(403);
    expect((await get(behindProxy, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    // The entry a client wrote before the proxy's is not believed.
    expect((await get(behindProxy, { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' })).status).toBe(
      403,
    );
  });
});
