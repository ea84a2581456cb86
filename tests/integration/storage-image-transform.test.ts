import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  databaseKinds,
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

/** An 800×600 photo-like JPEG (noise, so quality changes its size). */
const photo = () =>
  sharp({
    create: {
      width: 800,
      height: 600,
      channels: 3,
      background: { r: 120, g: 90, b: 60 },
      noise: { type: 'gaussian', mean: 120, sigma: 40 },
    },
  })
    .jpeg({ quality: 90 })
    .toBuffer();

const flat = (width: number, height: number, format: 'png' | 'jpeg' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 200, b: 30 } } })
    .toFormat(format)
    .toBuffer();

async function imageOf(response: Response) {
  expect(response.status).toBe(200);
  return sharp(Buffer.from(await response.arrayBuffer())).metadata();
}

describe.each(databaseKinds)('storage image transformations on %s', (kind) => {
  let server: TestServer;
  let service: SupabaseClient;
  const pics = `pics-${randomUUID().slice(0, 8)}`;
  const privateBucket = `private-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    server = await startTestServer(kind);
    service = testClient(server, server.serviceRoleKey);
    expect((await service.storage.createBucket(pics, { public: true })).error).toBeNull();
    expect((await service.storage.createBucket(privateBucket)).error).toBeNull();
    const put = async (bucket: string, key: string, bytes: Buffer, contentType: string) => {
      const { error } = await service.storage.from(bucket).upload(key, bytes, { contentType });
      if (error) throw error;
    };
    await put(pics, 'photo.jpg', await photo(), 'image/jpeg');
    await put(pics, 'notes.txt', Buffer.from('not an image'), 'text/plain');
    await server.deps.db.exec(`
      create policy "image owners read" on storage.objects for select to authenticated
        using (bucket_id = '${privateBucket}' and owner = auth.uid());
      create policy "image owners write" on storage.objects for insert to authenticated
        with check (bucket_id = '${privateBucket}' and owner = auth.uid());
    `);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const publicUrl = (key: string, transform: Record<string, unknown>) =>
    service.storage.from(pics).getPublicUrl(key, { transform }).data.publicUrl;

  it('resizes with cover, contain and fill, keeping the aspect ratio with one side given', async () => {
    const cover = await fetch(publicUrl('photo.jpg', { width: 200, height: 200 }));
    expect(cover.headers.get('x-transformations')).toBe('height:200,width:200,resize:cover');
    expect(await imageOf(cover)).toMatchObject({ width: 200, height: 200, format: 'jpeg' });

    const contain = await fetch(
      publicUrl('photo.jpg', { width: 200, height: 200, resize: 'contain' }),
    );
    expect(await imageOf(contain)).toMatchObject({ width: 200, height: 150 });

    const fill = await fetch(publicUrl('photo.jpg', { width: 300, height: 100, resize: 'fill' }));
    expect(await imageOf(fill)).toMatchObject({ width: 300, height: 100 });

    const oneSide = await fetch(publicUrl('photo.jpg', { width: 400 }));
    expect(await imageOf(oneSide)).toMatchObject({ width: 400, height: 300 });

    // Never enlarged, as imgproxy without `enlarge`.
    const larger = await fetch(publicUrl('photo.jpg', { width: 1600 }));
    expect(await imageOf(larger)).toMatchObject({ width: 800, height: 600 });
  });

  it('sends WebP to clients that accept it, the original format with origin, AVIF by name', async () => {
    const url = publicUrl('photo.jpg', { width: 100 });
    const webp = await fetch(url, { headers: { Accept: 'image/avif,image/webp,*/*' } });
    expect(webp.headers.get('content-type')).toBe('image/webp');
    expect(webp.headers.get('vary')).toBe('Accept');
    expect(await imageOf(webp)).toMatchObject({ format: 'webp', width: 100 });

    const plain = await fetch(url, { headers: { Accept: '*/*' } });
    expect(plain.headers.get('content-type')).toBe('image/jpeg');

    const origin = await fetch(publicUrl('photo.jpg', { width: 100, format: 'origin' }), {
      headers: { Accept: 'image/webp' },
    });
    expect(origin.headers.get('content-type')).toBe('image/jpeg');
    expect(origin.headers.get('vary')).toBeNull();

    const avif = await fetch(`${url}&format=avif`);
    expect(avif.headers.get('content-type')).toBe('image/avif');
    expect(await imageOf(avif)).toMatchObject({ format: 'heif', compression: 'av1' });
  });

  it('applies quality, answers 304 to a matching ETag and names a download', async () => {
    const size = async (quality: number) => {
      const response = await fetch(publicUrl('photo.jpg', { width: 400, quality }));
      expect(response.status).toBe(200);
      return (await response.arrayBuffer()).byteLength;
    };
    expect(await size(25)).toBeLessThan(await size(95));

    const url = publicUrl('photo.jpg', { width: 120 });
    const first = await fetch(url);
    const eTag = first.headers.get('etag')!;
    expect(eTag).toMatch(/^".+-.+"$/);
    const again = await fetch(url, { headers: { 'If-None-Match': eTag } });
    expect(again.status).toBe(304);
    // Another variant of the same object has another ETag.
    expect((await fetch(publicUrl('photo.jpg', { width: 121 }))).headers.get('etag')).not.toBe(
      eTag,
    );

    const named = await fetch(`${url}&download=small.jpg`);
    expect(named.headers.get('content-disposition')).toContain('filename="small.jpg"');
  });

  it('downloads a transformed private image only for a caller RLS lets read it', async () => {
    const [aliceId, bobId] = [randomUUID(), randomUUID()];
    const alice = testClient(server, server.anonKey, await signUserToken(server, aliceId));
    const bob = testClient(server, server.anonKey, await signUserToken(server, bobId));
    const key = `${aliceId}/avatar.png`;
    const upload = await alice.storage
      .from(privateBucket)
      .upload(key, await flat(640, 480), { contentType: 'image/png' });
    expect(upload.error).toBeNull();

    const { data, error } = await alice.storage
      .from(privateBucket)
      .download(key, { transform: { width: 64, height: 64 } });
    expect(error).toBeNull();
    const meta = await sharp(Buffer.from(await data!.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ width: 64, height: 64, format: 'png' });

    const refused = await bob.storage
      .from(privateBucket)
      .download(key, { transform: { width: 64 } });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ status: 404 });

    const anonymous = await fetch(
      `${server.url}/storage/v1/render/image/authenticated/${privateBucket}/${key}?width=64`,
    );
    expect(anonymous.status).toBe(403);
    // The public route does not serve a private bucket's objects.
    const viaPublic = await fetch(
      `${server.url}/storage/v1/render/image/public/${privateBucket}/${key}?width=64`,
    );
    expect(viaPublic.status).toBe(404);
  });

  it('signs URLs that render the signed transformation and no other', async () => {
    const { data, error } = await service.storage
      .from(pics)
      .createSignedUrl('photo.jpg', 60, { transform: { width: 100, height: 50 } });
    expect(error).toBeNull();
    expect(data!.signedUrl).toContain(`/storage/v1/render/image/sign/${pics}/photo.jpg?token=`);
    expect(await imageOf(await fetch(data!.signedUrl))).toMatchObject({ width: 100, height: 50 });
    // Query options cannot change what was signed.
    const widened = await fetch(`${data!.signedUrl}&width=700&height=700`);
    expect(await imageOf(widened)).toMatchObject({ width: 100, height: 50 });

    const tampered = await fetch(data!.signedUrl.replace(/token=.{12}/, 'token=xxxxxxxxxxxx'));
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ code: 'InvalidSignature' });

    const plain = await service.storage.from(pics).createSignedUrl('photo.jpg', 60);
    expect(plain.data!.signedUrl).toContain('/storage/v1/object/sign/');

    const bad = await service.storage
      .from(pics)
      .createSignedUrl('photo.jpg', 60, { transform: { quality: 5 } });
    expect(bad.error).toMatchObject({
      status: 400,
      message: 'body/transform/quality must be >= 20',
    });
  });

  it('refuses bad options and sources that are not images, saying what was wrong', async () => {
    const cases: [string, number, string][] = [
      ['photo.jpg?quality=10', 400, 'querystring/quality must be >= 20'],
      ['photo.jpg?quality=101', 400, 'querystring/quality must be <= 100'],
      ['photo.jpg?width=abc', 400, 'querystring/width must be integer'],
      ['photo.jpg?height=-4', 400, 'querystring/height must be >= 0'],
      [
        'photo.jpg?width=10&resize=stretch',
        400,
        'querystring/resize must be equal to one of the allowed values (cover, contain, fill)',
      ],
      [
        'photo.jpg?format=gif',
        400,
        'querystring/format must be equal to one of the allowed values (origin, webp, avif)',
      ],
      ['notes.txt?width=10', 400, 'The source image is invalid or unsupported for rendering'],
      ['missing.png?width=10', 404, 'Object not found'],
    ];
    for (const [pathAndQuery, status, message] of cases) {
      const response = await fetch(
        `${server.url}/storage/v1/render/image/public/${pics}/${pathAndQuery}`,
      );
      expect({ pathAndQuery, status: response.status }).toEqual({ pathAndQuery, status });
      expect(await response.json()).toMatchObject({ statusCode: String(status), message });
    }
  });

  it('serves a rendered variant from the disk cache until the object changes', async () => {
    const key = `cached-${randomUUID().slice(0, 8)}.png`;
    const put = async (bytes: Buffer) => {
      const { error } = await service.storage
        .from(pics)
        .upload(key, bytes, { contentType: 'image/png', upsert: true });
      if (error) throw error;
    };
    await put(await flat(300, 200));
    const url = publicUrl(key, { width: 150 });
    expect(await imageOf(await fetch(url))).toMatchObject({ width: 150, height: 100 });

    const fileId = await fileIdOf(key);
    const [variant] = fs.readdirSync(renderDir(fileId));
    expect(variant).toMatch(/\.png$/);
    // A marker in the cache proves the next answer comes from it, not from a new render.
    fs.writeFileSync(path.join(renderDir(fileId), variant!), await flat(7, 7));
    expect(await imageOf(await fetch(url))).toMatchObject({ width: 7, height: 7 });

    // A new version of the object is rendered afresh, and the old version's variants go.
    await put(await flat(600, 600));
    expect(await imageOf(await fetch(url))).toMatchObject({ width: 150, height: 150 });
    expect(fs.existsSync(renderDir(fileId))).toBe(false);

    const newId = await fileIdOf(key);
    expect(fs.existsSync(renderDir(newId))).toBe(true);
    expect((await service.storage.from(pics).remove([key])).error).toBeNull();
    expect(fs.existsSync(renderDir(newId))).toBe(false);
  });

  const renderDir = (fileId: string) =>
    path.join(server.dataDir, 'storage', 'renders', fileId.slice(0, 2), fileId);

  async function fileIdOf(key: string): Promise<string> {
    const { rows } = await server.deps.db.query<{ file_id: string }>(
      'select file_id from storage.objects where bucket_id = $1 and name = $2',
      [pics, key],
    );
    return rows[0]!.file_id;
  }
});

describe.each(databaseKinds)('storage image transformation limits on %s', (kind) => {
  let server: TestServer;
  let off: TestServer;
  const bucket = `limits-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    server = await startTestServer(kind, {
      IMAGE_TRANSFORMATION_LIMIT_MAX_SIZE: '100',
      IMAGE_TRANSFORMATION_MAX_SOURCE_BYTES: '60000',
      IMAGE_TRANSFORMATION_MAX_RESOLUTION_MP: '0.3',
    });
    off = await startTestServer(kind, { IMAGE_TRANSFORMATION_ENABLED: 'false' });
    for (const target of [server, off]) {
      const client = testClient(target, target.serviceRoleKey);
      expect((await client.storage.createBucket(bucket, { public: true })).error).toBeNull();
      const put = async (key: string, bytes: Buffer) => {
        const { error } = await client.storage
          .from(bucket)
          .upload(key, bytes, { contentType: 'image/png' });
        if (error) throw error;
      };
      await put('small.png', await flat(300, 300));
      await put('wide.png', await flat(800, 600));
      await put(
        'heavy.png',
        await sharp(await photo())
          .resize(400, 300)
          .png()
          .toBuffer(),
      );
    }
  });
  afterAll(async () => {
    await server?.stop();
    await off?.stop();
  });

  const render = (target: TestServer, query: string) =>
    fetch(`${target.url}/storage/v1/render/image/public/${bucket}/${query}`);

  it('clamps the output size to the largest allowed', async () => {
    expect(await imageOf(await render(server, 'small.png?width=250&height=250'))).toMatchObject({
      width: 100,
      height: 100,
    });
  });

  it('refuses sources over the size and resolution limits with Storage’s messages', async () => {
    const tooMany = await render(server, 'wide.png?width=50');
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({
      code: 'InvalidRequest',
      message: 'The source image resolution is too large to process',
    });
    const tooLarge = await render(server, 'heavy.png?width=50');
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toMatchObject({
      message: 'The source image file is too large to process',
    });
  });

  it('answers as a route that does not exist when transformations are off', async () => {
    const response = await render(off, 'small.png?width=50');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      message: `Route GET:/render/image/public/${bucket}/small.png not found`,
    });
    const signed = await testClient(off, off.serviceRoleKey)
      .storage.from(bucket)
      .createSignedUrl('small.png', 60, { transform: { width: 50 } });
    expect(signed.data!.signedUrl).toContain('/storage/v1/object/sign/');
  });
});
