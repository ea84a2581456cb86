import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, startTestServer, type TestServer } from '../support/test-server';

const fixture = `
create table public.kj_secrets (id int primary key, secret text not null);
alter table public.kj_secrets enable row level security;
insert into public.kj_secrets values (1, 'only for the service role');
create function public.kj_role() returns text language sql stable as 'select current_user::text';
notify pgrst, 'reload schema';
`;

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe.each(databaseKinds)('JWT verification at /rest/v1 on %s', (kind) => {
  let server: TestServer;

  async function sign(payload: jose.JWTPayload, header: Partial<jose.JWTHeaderParameters> = {}) {
    const key = server.deps.keys.current;
    return new jose.SignJWT(payload)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
      .sign(key.privateKey);
  }

  async function call(token: string | undefined, path = '/rpc/kj_role', apikey?: string) {
    const headers: Record<string, string> = { apikey: apikey ?? server.anonKey };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${server.url}/rest/v1${path}`, { headers });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  beforeAll(async () => {
    server = await startTestServer(kind);
    await server.deps.db.exec(fixture);
    for (let i = 0; i < 50 && (await call(server.serviceRoleKey)).status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(() => server?.stop());

  it('maps the role claim to the database role', async () => {
    expect((await call(undefined)).body).toBe('anon');
    expect((await call(server.serviceRoleKey)).body).toBe('service_role');
    expect(
      (await call(await sign({ role: 'authenticated', sub: 'u1', exp: inAnHour() }))).body,
    ).toBe('authenticated');
    const secrets = await call(server.serviceRoleKey, '/kj_secrets?select=secret');
    expect(secrets.body).toEqual([{ secret: 'only for the service role' }]);
    expect((await call(undefined, '/kj_secrets?select=secret')).body).toEqual([]);
  });

  it('refuses alg none', async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({
      role: 'service_role',
      exp: inAnHour(),
    })}.`;
    const result = await call(unsigned);
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ code: 'PGRST301' });
    expect((await call(undefined, '/rpc/kj_role', unsigned)).status).toBe(401);
  });

  it('refuses HS256 tokens when no JWT_SECRET is configured', async () => {
    const forged = await new jose.SignJWT({ role: 'service_role', exp: inAnHour() })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('super-secret-jwt-token-with-at-least-32-characters'));
    expect((await call(forged)).status).toBe(401);
  });

  it('refuses expired tokens', async () => {
    const expired = await sign({
      role: 'authenticated',
      sub: 'u1',
      exp: Math.floor(Date.now() / 1000) - 10,
    });
    const result = await call(expired);
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ message: 'JWT expired' });
  });

  it("refuses tokens signed by another deployment's key, even with our kid", async () => {
    const { privateKey } = await jose.generateKeyPair('ES256');
    const foreign = await new jose.SignJWT({ role: 'service_role', exp: inAnHour() })
      .setProtectedHeader({ alg: 'ES256', kid: server.deps.keys.current.kid, typ: 'JWT' })
      .sign(privateKey);
    expect((await call(foreign)).status).toBe(401);
    const otherKid = await new jose.SignJWT({ role: 'service_role', exp: inAnHour() })
      .setProtectedHeader({ alg: 'ES256', kid: 'someone-else', typ: 'JWT' })
      .sign(privateKey);
    expect((await call(otherKid)).status).toBe(401);
  });

  it('refuses unknown roles, tokens without exp and malformed tokens', async () => {
    expect((await call(await sign({ role: 'postgres', exp: inAnHour() }))).status).toBe(401);
    expect((await call(await sign({ role: 'authenticated', sub: 'u1' }))).status).toBe(401);
    expect((await call('not.a.jwt')).status).toBe(401);
    expect((await call(undefined, '/rpc/kj_role', 'garbage')).status).toBe(401);
  });
});

describe('HS256 with an explicit JWT_SECRET', () => {
  const secret = 'a-shared-secret-that-is-long-enough-for-hs256';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { JWT_SECRET: secret });
    await server.deps.db.exec(fixture);
  });
  afterAll(() => server?.stop());

  it('accepts HS256 tokens signed with the configured secret only', async () => {
    const sign = (key: string) =>
      new jose.SignJWT({ role: 'authenticated', sub: 'u1', exp: inAnHour() })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .sign(new TextEncoder().encode(key));
    const request = async (token: string) => {
      for (let i = 0; i < 50; i++) {
        const response = await fetch(`${server.url}/rest/v1/rpc/kj_role`, {
          headers: { apikey: server.anonKey, authorization: `Bearer ${token}` },
        });
        if (response.status !== 404)
          return { status: response.status, body: await response.json() };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('kj_role never appeared');
    };
    expect(await request(await sign(secret))).toEqual({ status: 200, body: 'authenticated' });
    expect((await request(await sign(`${secret}-wrong`))).status).toBe(401);
  });
});
