import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { rotateSigningKey } from '../../src/server/keys/key-store';
import { startServer, type RunningServer } from '../../src/server/start';
import { startTestServer, type TestServer } from '../support/test-server';
import { browserLikeClient, confirmedUser } from './auth-support';

// Two gateway processes on one PostgreSQL database: the second starts after a key rotation.
describe('auth key rotation on postgres', () => {
  let first: TestServer;
  let second: RunningServer | undefined;
  beforeAll(async () => {
    first = await startTestServer('postgres');
  });
  afterAll(async () => {
    await second?.close();
    await first?.stop();
  });

  it('signs with the new key while tokens from the old key still verify', async () => {
    const { client } = await confirmedUser(first);
    const old = (await client.auth.getSession()).data.session!;
    const oldKid = jose.decodeProtectedHeader(old.access_token).kid;

    const newKid = await rotateSigningKey(first.deps.db);
    second = await startServer(
      loadConfig(
        {},
        {
          NODE_ENV: 'test',
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          DATA_DIR: first.dataDir,
          DATABASE_URL: first.deps.config.databaseUrl,
          DATABASE_POOL_SIZE: '3',
        },
      ),
    );
    const jwks = (await (await fetch(`${second.url}/auth/v1/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((k) => k.kid)).toEqual([newKid, oldKid]);

    const user = await fetch(`${second.url}/auth/v1/user`, {
      headers: { apikey: second.deps.keys.anonKey, authorization: `Bearer ${old.access_token}` },
    });
    expect(user.status).toBe(200);

    const refreshed = await fetch(`${second.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: second.deps.keys.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: old.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    const session = (await refreshed.json()) as { access_token: string };
    expect(jose.decodeProtectedHeader(session.access_token).kid).toBe(newKid);
    const { payload } = await jose.jwtVerify(
      session.access_token,
      jose.createLocalJWKSet(jwks as jose.JSONWebKeySet),
    );
    expect(payload.sub).toBe(old.user.id);

    // A client of the new process verifies both tokens locally with the published set.
    const fresh = browserLikeClient({
      ...first,
      url: second.url,
      anonKey: second.deps.keys.anonKey,
    });
    expect((await fresh.auth.getClaims(old.access_token)).error).toBeNull();
    expect((await fresh.auth.getClaims(session.access_token)).error).toBeNull();
  });
});
