import { randomUUID } from 'node:crypto';
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEnv } from '../../src/server/gateway/context';
import { registerFunctionForTests } from '../../src/server/gateway/functions/router';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

function whoami() {
  return new Hono<ApiEnv>()
    .post('/', async (c) =>
      c.json({ role: c.get('role'), sub: c.get('claims').sub ?? null, body: await c.req.text() }),
    )
    .get('/nested/path', (c) => c.json({ path: c.req.path, query: c.req.query('q') ?? null }))
    .get('/address', (c) => c.json({ address: getConnInfo(c).remote.address ?? null }));
}

// Test-only functions, registered before the gateway is built; nothing like them ships.
const unregister = [
  registerFunctionForTests({ name: 'test-private', create: whoami }),
  registerFunctionForTests({ name: 'test-public', public: true, create: whoami }),
  registerFunctionForTests({
    name: 'test-slow',
    timeoutMs: 200,
    create: () =>
      new Hono<ApiEnv>().post('/', async (c) => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return c.json({ late: true });
      }),
  }),
  registerFunctionForTests({
    name: 'test-throws',
    create: () =>
      new Hono<ApiEnv>().post('/', () => {
        throw new Error('kaboom');
      }),
  }),
  registerFunctionForTests({ name: 'test-small', maxBodyBytes: 16, create: whoami }),
];

describe.each(databaseKinds)('functions router on %s', (kind) => {
  let server: TestServer;
  let anon: SupabaseClient;
  let userToken: string;
  const userId = randomUUID();

  beforeAll(async () => {
    server = await startTestServer(kind);
    anon = testClient(server, server.anonKey);
    userToken = await signUserToken(server, userId);
  });
  afterAll(async () => {
    await server?.stop();
    if (kind === databaseKinds[databaseKinds.length - 1]) unregister.forEach((fn) => fn());
  });

  it('ships a public health function', async () => {
    const { data, error } = await anon.functions.invoke('health');
    expect(error).toBeNull();
    expect(data).toEqual({ status: 'ok', function: 'health', time: expect.any(String) });
    expect(Number.isNaN(Date.parse((data as { time: string }).time))).toBe(false);
    const bare = await fetch(`${server.url}/functions/v1/health`);
    expect(bare.status).toBe(200);
  });

  it('passes the verified claims and the body to the function', async () => {
    const asAnon = await anon.functions.invoke('test-private', { body: { hello: 'world' } });
    expect(asAnon.data).toEqual({ role: 'anon', sub: null, body: '{"hello":"world"}' });
    const asUser = await testClient(server, server.anonKey, userToken).functions.invoke(
      'test-private',
      {
        body: 'plain',
      },
    );
    expect(asUser.data).toEqual({ role: 'authenticated', sub: userId, body: 'plain' });
    const nested = await fetch(`${server.url}/functions/v1/test-private/nested/path?q=1`, {
      headers: { apikey: server.anonKey },
    });
    expect(await nested.json()).toEqual({ path: '/nested/path', query: '1' });
    const address = await fetch(`${server.url}/functions/v1/test-private/address`, {
      headers: { apikey: server.anonKey },
    });
    expect(await address.json()).toEqual({ address: '127.0.0.1' });
  });

  it('answers 401 without a valid JWT unless the function is public', async () => {
    const missing = await fetch(`${server.url}/functions/v1/test-private`, { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      code: 'unauthorized',
      message: 'Missing authorization header',
    });
    const forged = await fetch(`${server.url}/functions/v1/test-private`, {
      method: 'POST',
      headers: { authorization: 'Bearer a.b.c' },
    });
    expect(forged.status).toBe(401);

    const open = await fetch(`${server.url}/functions/v1/test-public`, { method: 'POST' });
    expect(await open.json()).toMatchObject({ role: 'anon' });
    const openForged = await fetch(`${server.url}/functions/v1/test-public`, {
      method: 'POST',
      headers: { authorization: 'Bearer a.b.c' },
    });
    expect(await openForged.json()).toMatchObject({ role: 'anon' });
    const openUser = await fetch(`${server.url}/functions/v1/test-public`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}` },
    });
    expect(await openUser.json()).toMatchObject({ role: 'authenticated', sub: userId });
  });

  it('answers CORS preflights with the headers supabase-js sends', async () => {
    const preflight = await fetch(`${server.url}/functions/v1/test-private`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, apikey, x-client-info, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(',');
    expect(allowed).toEqual(
      expect.arrayContaining([
        'authorization',
        'apikey',
        'x-client-info',
        'content-type',
        'x-upsert',
      ]),
    );
    const actual = await fetch(`${server.url}/functions/v1/health`, {
      headers: { origin: 'https://app.example' },
    });
    expect(actual.headers.get('access-control-allow-origin')).toBe('*');
    expect(actual.headers.get('access-control-expose-headers')).toMatch(/Content-Range/);
  });

  it('gives JSON errors for unknown functions, thrown errors, timeouts and big bodies', async () => {
    const unknown = await anon.functions.invoke('no-such-function');
    expect(unknown.error).toBeInstanceOf(FunctionsHttpError);
    const unknownResponse = (unknown.error as FunctionsHttpError).context as Response;
    expect(unknownResponse.status).toBe(404);
    expect(await unknownResponse.json()).toEqual({
      code: 'not_found',
      message: 'Function "no-such-function" not found',
    });

    expect((await fetch(`${server.url}/functions/v1/%E0%A4%A`)).status).toBe(404);

    const thrown = await fetch(`${server.url}/functions/v1/test-throws`, {
      method: 'POST',
      headers: { apikey: server.anonKey },
    });
    expect(thrown.status).toBe(500);
    const thrownBody = (await thrown.json()) as { message: string };
    expect(thrownBody).toEqual({ code: 'function_error', message: 'kaboom' });

    const started = Date.now();
    const slow = await fetch(`${server.url}/functions/v1/test-slow`, {
      method: 'POST',
      headers: { apikey: server.anonKey },
    });
    expect(slow.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(900);
    expect(await slow.json()).toMatchObject({ code: 'timeout' });

    const big = await fetch(`${server.url}/functions/v1/test-small`, {
      method: 'POST',
      headers: { apikey: server.anonKey },
      body: 'x'.repeat(17),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'payload_too_large' });
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(8)));
        controller.close();
      },
    });
    const streamed = await fetch(`${server.url}/functions/v1/test-small`, {
      method: 'POST',
      headers: { apikey: server.anonKey },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    const smallChunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('abc'));
        controller.enqueue(new TextEncoder().encode('def'));
        controller.close();
      },
    });
    const streamedFits = await fetch(`${server.url}/functions/v1/test-small`, {
      method: 'POST',
      headers: { apikey: server.anonKey },
      body: smallChunks,
      duplex: 'half',
    } as RequestInit);
    expect(await streamedFits.json()).toMatchObject({ body: 'abcdef' });
    const fits = await fetch(`${server.url}/functions/v1/test-small`, {
      method: 'POST',
      headers: { apikey: server.anonKey },
      body: 'x'.repeat(16),
    });
    expect(await fits.json()).toMatchObject({ body: 'x'.repeat(16) });
  });
});
