/**
 * Bad request bodies at the edge (decision 0026): malformed JSON, wrong types and oversized
 * bodies get a clear error in each wire format's own shape and status, before any domain code
 * runs, and a good body still works afterwards.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  type TestServer,
} from '../support/test-server';

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function send(
  server: TestServer,
  path: string,
  body: string | ReadableStream<Uint8Array>,
  options: { method?: string; token?: string; apiKey?: string } = {},
): Promise<Answer> {
  const apiKey = options.apiKey ?? server.serviceRoleKey;
  const response = await fetch(`${server.url}${path}`, {
    method: options.method ?? 'POST',
    headers: {
      apikey: apiKey,
      authorization: `Bearer ${options.token ?? apiKey}`,
      'content-type': 'application/json',
    },
    body,
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * A chunked body with no Content-Length, so only the reader's own count can stop it. After
 * `totalBytes` it sends nothing more and waits: the server answers and closes the connection
 * while the client is not writing, so the client reads the answer instead of a reset.
 */
function chunked(totalBytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return new Promise<void>(() => undefined);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
}

describe.each(databaseKinds)('request bodies at the edge on %s', (kind) => {
  let server: TestServer;
  const bucket = `edge-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    server = await startTestServer(kind, { DATA_ROOM_PIN: 'edge-pin-1234' });
    const created = await send(server, '/storage/v1/bucket', JSON.stringify({ name: bucket }));
    expect(created.status).toBe(200);
  });
  afterAll(() => server?.stop());

  describe('storage', () => {
    it('answers malformed JSON and wrong types with 400 InvalidRequest naming the field', async () => {
      const malformed = await send(server, '/storage/v1/object/move', '{"bucketId": ');
      expect(malformed).toMatchObject({
        status: 400,
        body: {
          statusCode: '400',
          code: 'InvalidRequest',
          message: expect.stringMatching(/^The request body is not valid JSON/),
        },
      });

      const wrongTypes = await send(
        server,
        '/storage/v1/object/move',
        JSON.stringify({ bucketId: bucket, sourceKey: 42, destinationKey: ['b.txt'] }),
      );
      expect(wrongTypes.status).toBe(400);
      expect(wrongTypes.body).toMatchObject({ statusCode: '400', code: 'InvalidRequest' });
      expect(wrongTypes.body.message).toContain('sourceKey: expected string, received number');
      expect(wrongTypes.body.message).toContain('destinationKey: expected string');

      const notAnObject = await send(server, '/storage/v1/bucket', '[1, 2]');
      expect(notAnObject).toMatchObject({ status: 400, body: { code: 'InvalidRequest' } });
      expect(notAnObject.body.message).toMatch(/expected object, received array/);

      const publicAsText = await send(
        server,
        `/storage/v1/bucket/${bucket}`,
        JSON.stringify({ public: 'yes' }),
        { method: 'PUT' },
      );
      expect(publicAsText).toMatchObject({ status: 400, body: { code: 'InvalidRequest' } });
      expect(publicAsText.body.message).toContain('public: expected boolean');

      const tooMany = await send(
        server,
        `/storage/v1/object/${bucket}`,
        JSON.stringify({ prefixes: Array.from({ length: 1001 }, (_, i) => `f${i}.txt`) }),
        { method: 'DELETE' },
      );
      expect(tooMany).toMatchObject({
        status: 400,
        body: {
          code: 'InvalidRequest',
          message: 'prefixes: At most 1000 objects can be removed at once',
        },
      });

      // The bucket is untouched and a good body still works.
      const good = await send(
        server,
        `/storage/v1/object/list/${bucket}`,
        JSON.stringify({ prefix: '', limit: 10 }),
      );
      expect(good).toMatchObject({ status: 200, body: [] });
    });

    it('refuses an oversized JSON body with 413 EntityTooLarge, declared or chunked', async () => {
      const declared = await send(
        server,
        `/storage/v1/object/list/${bucket}`,
        JSON.stringify({ prefix: 'x'.repeat(2 * 1024 * 1024) }),
      );
      expect(declared).toMatchObject({
        status: 413,
        body: { statusCode: '413', code: 'EntityTooLarge' },
      });
      const streamed = await send(
        server,
        `/storage/v1/object/list/${bucket}`,
        chunked((1 << 20) + (64 << 10)),
      );
      expect(streamed).toMatchObject({ status: 413, body: { code: 'EntityTooLarge' } });
    });

    it('checks the caller before the body', async () => {
      const response = await fetch(`${server.url}/storage/v1/object/move`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"bucketId": ',
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'AccessDenied' });
    });
  });

  describe('functions', () => {
    it('answers a PIN check whose body is not {pin: string} with 400 invalid_request', async () => {
      for (const body of ['{"pin": ', JSON.stringify({ pin: 1234 }), '[]', '']) {
        const answer = await send(server, '/functions/v1/data-room-access', body, {
          apiKey: server.anonKey,
        });
        expect(answer, body).toMatchObject({
          status: 400,
          body: { error: 'Send a JSON body such as {"pin": "…"}.', code: 'invalid_request' },
        });
        expect(typeof answer.body.details, body).toBe('string');
      }
      const wrongType = await send(
        server,
        '/functions/v1/data-room-access',
        JSON.stringify({ pin: 1234 }),
        { apiKey: server.anonKey },
      );
      expect(wrongType.body.details).toBe('pin: expected string, received number');
      const right = await send(
        server,
        '/functions/v1/data-room-access',
        JSON.stringify({ pin: 'edge-pin-1234' }),
        { apiKey: server.anonKey },
      );
      expect(right.status).toBe(200);
      expect(typeof right.body.grant).toBe('string');
    });

    it('names each wrong field of a data-room version, for admins only', async () => {
      const path = '/functions/v1/data-room/documents/legal/bylaws.md';
      const wrong = await send(server, path, JSON.stringify({ content: 7, version: 'final' }), {
        method: 'PUT',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({ code: 'invalid_request' });
      expect(wrong.body.error).toContain(
        `content: "content" must be the document's Markdown text.`,
      );
      expect(wrong.body.error).toContain('version: "version" must look like "2.1" or "2.1.3".');

      // A visitor with a grant is refused as a visitor, whatever the body.
      const grant = (
        await send(
          server,
          '/functions/v1/data-room-access',
          JSON.stringify({ pin: 'edge-pin-1234' }),
          { apiKey: server.anonKey },
        )
      ).body.grant as string;
      const visitor = await send(server, path, '{"content": ', {
        method: 'PUT',
        apiKey: server.anonKey,
        token: grant,
      });
      expect(visitor).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    });

    it('refuses an oversized function body with 413 from the router', async () => {
      const big = await send(
        server,
        '/functions/v1/data-room-access',
        JSON.stringify({ pin: 'x'.repeat(8 * 1024) }),
        { apiKey: server.anonKey },
      );
      expect(big).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    });
  });

  describe('auth', () => {
    it('answers malformed JSON and wrong types with GoTrue’s 400 bad_json naming the field', async () => {
      const malformed = await send(server, '/auth/v1/signup', '{"email": ', {
        apiKey: server.anonKey,
      });
      expect(malformed).toMatchObject({
        status: 400,
        body: { code: 'bad_json', message: 'Could not parse request body as JSON' },
      });
      const wrongType = await send(
        server,
        '/auth/v1/signup',
        JSON.stringify({ email: 'typed@example.org', password: 12345678 }),
        { apiKey: server.anonKey },
      );
      expect(wrongType).toMatchObject({
        status: 400,
        body: {
          code: 'bad_json',
          message:
            'Could not parse request body as JSON: password: expected string, received number',
        },
      });
      const notAnObject = await send(
        server,
        '/auth/v1/token?grant_type=password',
        '["a@example.org"]',
        { apiKey: server.anonKey },
      );
      expect(notAnObject).toMatchObject({ status: 400, body: { code: 'bad_json' } });
      expect(notAnObject.body.message).toMatch(/expected object, received array/);
      // Missing values keep GoTrue's own codes, which supabase-js turns into its errors: a
      // sign-up without an email or a phone is an anonymous sign-in, off by default.
      const missing = await send(server, '/auth/v1/signup', '{}', { apiKey: server.anonKey });
      expect(missing).toMatchObject({
        status: 422,
        body: { code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' },
      });
    });

    it('refuses an oversized auth body with 413, declared or chunked', async () => {
      const declared = await send(
        server,
        '/auth/v1/recover',
        JSON.stringify({ email: 'big@example.org', pad: 'x'.repeat(100_000) }),
        { apiKey: server.anonKey },
      );
      expect(declared).toMatchObject({ status: 413, body: { code: 'validation_failed' } });
      const streamed = await send(server, '/auth/v1/recover', chunked(256 * 1024), {
        apiKey: server.anonKey,
      });
      expect(streamed).toMatchObject({ status: 413, body: { code: 'validation_failed' } });
    });
  });

  describe('REST', () => {
    it('keeps PostgREST’s answers: PGRST102 for malformed JSON, PGRST413 past the limit', async () => {
      const token = await signUserToken(server, randomUUID());
      const malformed = await send(server, '/rest/v1/rpc/get_public_platform_metrics', '{"a": ', {
        apiKey: server.anonKey,
        token,
      });
      expect(malformed).toMatchObject({
        status: 400,
        body: { code: 'PGRST102', message: expect.stringMatching(/^Empty or invalid json/) },
      });
      const declared = await send(
        server,
        '/rest/v1/rpc/get_public_platform_metrics',
        JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }),
        { apiKey: server.anonKey, token },
      );
      expect(declared).toMatchObject({ status: 413, body: { code: 'PGRST413' } });
      const streamed = await send(
        server,
        '/rest/v1/rpc/get_public_platform_metrics',
        chunked((1 << 20) + (64 << 10)),
        { apiKey: server.anonKey, token },
      );
      expect(streamed).toMatchObject({ status: 413, body: { code: 'PGRST413' } });
      const good = await send(server, '/rest/v1/rpc/get_public_platform_metrics', '{}', {
        apiKey: server.anonKey,
        token,
      });
      expect(good.status).toBe(200);
    });
  });
});
