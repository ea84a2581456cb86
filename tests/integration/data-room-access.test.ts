/**
 * The data-room PIN check on the server: answers, timing, rate limit, and what the grant is
 * worth (and what forged, foreign, expired or revoked grants are not).
 */
import { randomUUID } from 'node:crypto';
import * as jose from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const PIN = 'test-pin-1234';

/** supabase-js on Node 20 wants a WebSocket class for realtime even when it is unused. */
const client = (server: TestServer, token?: string) => testClient(server, server.anonKey, token);

async function postPin(server: TestServer, body: unknown, raw = false) {
  const started = Date.now();
  const response = await fetch(`${server.url}/functions/v1/data-room-access`, {
    method: 'POST',
    headers: { apikey: server.anonKey, 'content-type': 'application/json' },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  const elapsed = Date.now() - started;
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, json, elapsed, headers: response.headers };
}

async function getOverview(server: TestServer, token: string) {
  const response = await fetch(`${server.url}/functions/v1/data-room/overview`, {
    headers: { apikey: server.anonKey, authorization: `Bearer ${token}` },
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe.each(databaseKinds)('data room access check on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { DATA_ROOM_PIN: PIN });
  });
  afterAll(() => server?.stop());
  beforeEach(async () => {
    // Every request comes from 127.0.0.1: start each test with a clean attempt history.
    await server.deps.db.query('delete from data_room.pin_attempts');
  });

  it('grants access for the right PIN, through supabase-js, after at least 500 ms', async () => {
    const started = Date.now();
    const { data, error } = await client(server).functions.invoke<{
      grant: string;
      grantId: string;
      expiresAt: number;
    }>('data-room-access', { body: { pin: PIN } });
    expect(error).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(490);

    const header = jose.decodeProtectedHeader(data!.grant);
    expect(header.kid).toBe(server.deps.keys.current.kid);
    const claims = jose.decodeJwt(data!.grant);
    expect(claims).toMatchObject({ role: 'anon', data_room: true, jti: data!.grantId });
    expect(claims.exp).toBe(data!.expiresAt);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(12 * 3600);
    expect(claims.exp! * 1000).toBeGreaterThan(Date.now());
    // The gateway verifies it like any other token of this deployment.
    await expect(server.deps.verifier.verify(data!.grant)).resolves.toMatchObject({
      role: 'anon',
    });
  });

  it('trims the PIN before comparing it', async () => {
    const { status, json } = await postPin(server, { pin: `  ${PIN}\t ` });
    expect(status).toBe(200);
    expect(typeof json.grant).toBe('string');
  });

  it('answers a wrong PIN with 401 and the message the dialog shows, after 500 ms', async () => {
    const { status, json, elapsed } = await postPin(server, { pin: 'wrong-pin' });
    expect(status).toBe(401);
    expect(json).toEqual({ error: 'Incorrect PIN. Please try again.', code: 'invalid_pin' });
    expect(elapsed).toBeGreaterThanOrEqual(490);
    expect(json).not.toHaveProperty('grant');
  });

  it('refuses bad input with a clear message and no grant', async () => {
    const blank = await postPin(server, { pin: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.json.error).toBe('Enter the access PIN.');
    expect(blank.elapsed).toBeGreaterThanOrEqual(490);

    const long = await postPin(server, { pin: `${PIN}${'x'.repeat(21 - PIN.length)}` });
    expect(long.status).toBe(400);
    expect(long.json.error).toBe('The PIN has at most 20 characters.');

    // 21 characters that start with the right PIN must not be cut down to it.
    const padded = await postPin(server, { pin: `${PIN}       x` });
    expect(padded.status).toBe(400);

    const notJson = await postPin(server, '{pin:', true);
    expect(notJson.status).toBe(400);
    expect(notJson.json.error).toMatch(/JSON body/);

    const notText = await postPin(server, { pin: 1234 });
    expect(notText.status).toBe(400);

    for (const answer of [blank, long, padded, notJson, notText])
      expect(answer.json).not.toHaveProperty('grant');
  });

  it('limits wrong attempts per client address, also for parallel guesses', async () => {
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => postPin(server, { pin: `guess-${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const limited = answers.find((a) => a.status === 429)!;
    expect(limited.json.code).toBe('rate_limited');
    expect(limited.json.error).toMatch(/Too many incorrect PIN attempts.*try again in 15 minutes/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);

    // While the limit holds even the right PIN is refused.
    const right = await postPin(server, { pin: PIN });
    expect(right.status).toBe(429);
    expect(right.json).not.toHaveProperty('grant');
  });

  it('does not count a right PIN against the address', async () => {
    for (let i = 0; i < 4; i++) expect((await postPin(server, { pin: 'nope' })).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await postPin(server, { pin: PIN })).status).toBe(200);
    expect((await postPin(server, { pin: 'nope' })).status).toBe(401);
    expect((await postPin(server, { pin: PIN })).status).toBe(429);
  });

  it('opens the data room with a grant and refuses everything that is not a live grant', async () => {
    const { json } = await postPin(server, { pin: PIN });
    const grant = json.grant as string;

    const ok = await getOverview(server, grant);
    expect(ok.status).toBe(200);

    // The anon key alone is a valid token but not a grant.
    const anon = await getOverview(server, server.anonKey);
    expect(anon.status).toBe(401);
    expect(anon.json.code).toBe('grant_required');

    // A token signed by another deployment's key (unknown kid) or a forged signature.
    const foreign = await jose.generateKeyPair('ES256');
    const claims = { role: 'anon', data_room: true, jti: json.grantId as string };
    const fromElsewhere = await new jose.SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: randomUUID() })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(foreign.privateKey);
    expect((await getOverview(server, fromElsewhere)).status).toBe(401);
    const forged = await new jose.SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: server.deps.keys.current.kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(foreign.privateKey);
    const forgedAnswer = await getOverview(server, forged);
    expect(forgedAnswer.status).toBe(401);
    expect(JSON.stringify(forgedAnswer.json)).toMatch(/signature/i);

    // Our key, but never issued by the PIN check.
    const key = server.deps.keys.current;
    const unissued = await new jose.SignJWT({ ...claims, jti: randomUUID() })
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key.privateKey);
    expect((await getOverview(server, unissued)).status).toBe(401);

    // Our key and an issued grant id, but expired.
    const expired = await new jose.SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key.privateKey);
    const expiredAnswer = await getOverview(server, expired);
    expect(expiredAnswer.status).toBe(401);
    expect(JSON.stringify(expiredAnswer.json)).toMatch(/expired/i);

    // Leaving ends the grant on the server too.
    const leave = await fetch(`${server.url}/functions/v1/data-room/leave`, {
      method: 'POST',
      headers: { apikey: server.anonKey, authorization: `Bearer ${grant}` },
    });
    expect(leave.status).toBe(204);
    expect((await getOverview(server, grant)).status).toBe(401);
  });

  it('lets the REST procedures answer only with a grant', async () => {
    const { json } = await postPin(server, { pin: PIN });
    const withGrant = await client(server, json.grant as string).rpc('get_data_room_overview');
    expect(withGrant.error).toBeNull();
    expect(withGrant.data).toMatchObject({ total_documents: 35, categories: 8 });

    const without = await client(server).rpc('get_data_room_overview');
    expect(without.data).toBeNull();
    expect(without.error?.message).toMatch(/data room grant is required/);
  });
});
