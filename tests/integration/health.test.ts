import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

describe.each(databaseKinds)('server foundation on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.stop());

  it('reports health after a real database round trip', async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      database: kind,
      database_status: 'up',
      version: expect.any(String),
    });
  });

  it('answers an unknown path with 404 and a known route with 200', async () => {
    expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
    expect((await fetch(`${server.url}/data-encryption`)).status).toBe(200);
  });

  it('issues anon and service-role keys signed with ES256', () => {
    for (const key of [server.anonKey, server.serviceRoleKey]) {
      const header = JSON.parse(Buffer.from(key.split('.')[0]!, 'base64url').toString()) as {
        alg: string;
      };
      expect(header.alg).toBe('ES256');
    }
  });
});
