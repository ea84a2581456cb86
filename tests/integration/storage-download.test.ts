import { type SupabaseClient } from '@supabase/supabase-js';
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBlobBackend, storageSetups, type TestBlobBackend } from '../support/blob-backends';
import { startTestServer, testClient, type TestServer } from '../support/test-server';

const client = testClient;

const TEXT = 'The quick brown fox jumps over the lazy dog';

describe.each(storageSetups)('storage downloads on %s with %s blobs', (kind, backend) => {
  let blobs: TestBlobBackend;
  let server: TestServer;
  let service: SupabaseClient;
  let anon: SupabaseClient;

  beforeAll(async () => {
    blobs = await startBlobBackend(backend);
    server = await startTestServer(kind, blobs.env);
    service = client(server, server.serviceRoleKey);
    anon = client(server, server.anonKey);
    await service.storage.createBucket('site', { public: true });
    await service.storage.createBucket('vault', { public: false });
    for (const bucket of ['site', 'vault'])
      await service.storage
        .from(bucket)
        .upload('docs/fox.txt', TEXT, { contentType: 'text/plain', cacheControl: '120' });
  });
  afterAll(async () => {
    await server?.stop();
    await blobs?.stop();
  });

  it('serves public buckets without a key and keeps private ones private', async () => {
    const { data } = anon.storage.from('site').getPublicUrl('docs/fox.txt');
    expect(data.publicUrl).toBe(`${server.url}/storage/v1/object/public/site/docs/fox.txt`);
    const response = await fetch(data.publicUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(TEXT);

    const privateUrl = anon.storage.from('vault').getPublicUrl('docs/fox.txt').data.publicUrl;
    const refused = await fetch(privateUrl);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ statusCode: '404', message: 'Bucket not found' });
    expect((await fetch(`${server.url}/storage/v1/object/public/site/docs/none.txt`)).status).toBe(
      404,
    );
  });

  it('sends type, length, ETag and the upload Cache-Control; 304 on If-None-Match', async () => {
    const url = `${server.url}/storage/v1/object/public/site/docs/fox.txt`;
    const first = await fetch(url);
    expect(first.headers.get('content-type')).toBe('text/plain');
    expect(first.headers.get('content-length')).toBe(String(TEXT.length));
    expect(first.headers.get('cache-control')).toBe('max-age=120');
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    await first.arrayBuffer();

    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(TEXT.length));
    expect(await head.text()).toBe('');
    const changed = await fetch(url, { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it('answers byte ranges with 206 and an unsatisfiable range with 416', async () => {
    const url = `${server.url}/storage/v1/object/public/site/docs/fox.txt`;
    const head = await fetch(url, { headers: { range: 'bytes=4-8' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-range')).toBe(`bytes 4-8/${TEXT.length}`);
    expect(head.headers.get('content-length')).toBe('5');
    expect(await head.text()).toBe('quick');

    const tail = await fetch(url, { headers: { range: 'bytes=-3' } });
    expect(await tail.text()).toBe('dog');
    const open = await fetch(url, { headers: { range: 'bytes=40-' } });
    expect(await open.text()).toBe('dog');

    const beyond = await fetch(url, { headers: { range: 'bytes=1000-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${TEXT.length}`);
    expect(await beyond.json()).toMatchObject({ statusCode: '416', code: 'InvalidRange' });
  });

  it('streams objects larger than one read, whole and by range', async () => {
    const big = Buffer.alloc(300 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 10)) % 251;
    const vault = service.storage.from('vault');
    expect(
      (await vault.upload('big/blob.bin', big, { contentType: 'application/octet-stream' })).error,
    ).toBeNull();
    const whole = await vault.download('big/blob.bin');
    expect(Buffer.from(await whole.data!.arrayBuffer()).equals(big)).toBe(true);

    const signed = await vault.createSignedUrl('big/blob.bin', 60);
    const ranged = await fetch(signed.data!.signedUrl, {
      headers: { range: 'bytes=100000-250000' },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100000-250000/${big.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(big.subarray(100000, 250001))).toBe(true);
  });

  it('offers a download with Content-Disposition when asked', async () => {
    const { publicUrl } = anon.storage
      .from('site')
      .getPublicUrl('docs/fox.txt', { download: 'Fox Story.txt' }).data;
    const named = await fetch(publicUrl);
    expect(named.headers.get('content-disposition')).toBe(
      `attachment; filename="Fox Story.txt"; filename*=UTF-8''Fox%20Story.txt`,
    );
    await named.arrayBuffer();
    const plain = await fetch(
      anon.storage.from('site').getPublicUrl('docs/fox.txt', { download: true }).data.publicUrl,
    );
    expect(plain.headers.get('content-disposition')).toMatch(/^attachment; filename="fox.txt"/);
    await plain.arrayBuffer();
  });

  it('downloads private objects with the service role through the authenticated path', async () => {
    const { data } = await service.storage.from('vault').download('docs/fox.txt');
    expect(await data?.text()).toBe(TEXT);
    const authenticated = await fetch(
      `${server.url}/storage/v1/object/authenticated/vault/docs/fox.txt`,
      {
        headers: {
          apikey: server.serviceRoleKey,
          authorization: `Bearer ${server.serviceRoleKey}`,
        },
      },
    );
    expect(await authenticated.text()).toBe(TEXT);
    expect((await anon.storage.from('vault').download('docs/fox.txt')).error).toMatchObject({
      status: 404,
    });
  });

  it('issues signed URLs that work without a key until they expire', async () => {
    const signed = await service.storage.from('vault').createSignedUrl('docs/fox.txt', 60);
    expect(signed.error).toBeNull();
    const response = await fetch(signed.data!.signedUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(TEXT);

    const ranged = await fetch(signed.data!.signedUrl, { headers: { range: 'bytes=0-2' } });
    expect(await ranged.text()).toBe('The');

    expect(
      (await anon.storage.from('vault').createSignedUrl('docs/fox.txt', 60)).error,
    ).toMatchObject({
      status: 404,
    });
    expect(
      (await service.storage.from('vault').createSignedUrl('docs/none.txt', 60)).error,
    ).toMatchObject({
      status: 404,
    });
    expect(
      (await service.storage.from('vault').createSignedUrl('docs/fox.txt', 0)).error,
    ).toMatchObject({
      status: 400,
    });

    const short = await service.storage.from('vault').createSignedUrl('docs/fox.txt', 1);
    // The server runs in this process: move its clock past the expiry instead of waiting.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 2000);
      const expired = await fetch(short.data!.signedUrl);
      expect(expired.status).toBe(400);
      expect(await expired.json()).toMatchObject({ code: 'ExpiredToken' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('signs several paths at once, flagging the ones that do not exist', async () => {
    const { data, error } = await service.storage
      .from('vault')
      .createSignedUrls(['docs/fox.txt', 'docs/none.txt'], 60);
    expect(error).toBeNull();
    expect(data![0]).toMatchObject({ path: 'docs/fox.txt', error: null });
    expect(data![1]).toMatchObject({
      path: 'docs/none.txt',
      signedUrl: null,
      error: expect.any(String),
    });
    expect(await (await fetch(data![0]!.signedUrl!)).text()).toBe(TEXT);
  });

  it('refuses forged, foreign and misused signed-URL tokens', async () => {
    const base = `${server.url}/storage/v1/object/sign/vault/docs/fox.txt`;
    const { privateKey } = await jose.generateKeyPair('ES256');
    const forged = await new jose.SignJWT({ url: 'vault/docs/fox.txt' })
      .setProtectedHeader({ alg: 'ES256', kid: server.deps.keys.current.kid })
      .setExpirationTime('1h')
      .sign(privateKey);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ url: 'vault/docs/fox.txt', exp: 9999999999 }),
    ).toString('base64url')}.`;
    const other = await service.storage.from('site').createSignedUrl('docs/fox.txt', 60);
    const otherToken = new URL(other.data!.signedUrl).searchParams.get('token')!;
    for (const token of [forged, unsigned, otherToken, server.serviceRoleKey, 'garbage']) {
      const response = await fetch(`${base}?token=${token}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'InvalidSignature' });
    }
    const missing = await fetch(base);
    expect(missing.status).toBe(400);

    // A signed-URL token carries no role, so it is no API key either.
    const signed = await service.storage.from('vault').createSignedUrl('docs/fox.txt', 60);
    const token = new URL(signed.data!.signedUrl).searchParams.get('token')!;
    const asKey = await fetch(`${server.url}/storage/v1/object/vault/docs/fox.txt`, {
      headers: { apikey: token, authorization: `Bearer ${token}` },
    });
    expect(asKey.status).toBe(400);
  });

  it('serves uploaded HTML sandboxed so it cannot act as this origin', async () => {
    await service.storage
      .from('site')
      .upload('page.html', '<script>alert(1)</script>', { contentType: 'text/html' });
    const response = await fetch(`${server.url}/storage/v1/object/public/site/page.html`);
    expect(response.headers.get('content-security-policy')).toMatch(/sandbox/);
    await response.text();
  });
});
