import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { startBlobBackend, storageSetups, type TestBlobBackend } from '../support/blob-backends';
import {
  signUserToken,
  startTestServer,
  testClient,
  type TestServer,
} from '../support/test-server';

const client = testClient;

const userToken = (server: TestServer, sub: string, expiresIn = '1h') =>
  signUserToken(server, sub, { expiresIn });

describe.each(storageSetups)('storage buckets and objects on %s with %s blobs', (kind, backend) => {
  let blobs: TestBlobBackend;
  let server: TestServer;
  let service: SupabaseClient;
  let anon: SupabaseClient;

  /** A user of the test's own: the policies give each user a folder named by their id. */
  async function newUser(): Promise<{ id: string; client: SupabaseClient }> {
    const id = randomUUID();
    return { id, client: client(server, server.anonKey, await userToken(server, id)) };
  }

  /** The blob an object's row points at. */
  async function fileIdOf(name: string): Promise<string> {
    const { rows } = await server.deps.db.query<{ file_id: string }>(
      `select file_id from storage.objects where bucket_id = 'homework' and name = $1`,
      [name],
    );
    if (!rows[0]) throw new Error(`no object ${name}`);
    return rows[0].file_id;
  }

  beforeAll(async () => {
    blobs = await startBlobBackend(backend);
    server = await startTestServer(kind, blobs.env);
    service = client(server, server.serviceRoleKey);
    anon = client(server, server.anonKey);
    // An app's policies: users own the files under a folder named by their id.
    await server.deps.db.exec(`
      create policy "own files: read" on storage.objects for select to authenticated
        using (bucket_id = 'homework' and owner = auth.uid());
      create policy "own files: write" on storage.objects for insert to authenticated
        with check (bucket_id = 'homework' and owner = auth.uid()
                    and (storage.foldername(name))[1] = auth.uid()::text);
      create policy "own files: update" on storage.objects for update to authenticated
        using (bucket_id = 'homework' and owner = auth.uid())
        with check (bucket_id = 'homework' and owner = auth.uid()
                    and (storage.foldername(name))[1] = auth.uid()::text);
      create policy "own files: delete" on storage.objects for delete to authenticated
        using (bucket_id = 'homework' and owner = auth.uid());
    `);
    const homework = await service.storage.createBucket('homework', { public: false });
    if (homework.error) throw homework.error;
  });
  afterAll(async () => {
    await server?.stop();
    await blobs?.stop();
  });

  describe('buckets', () => {
    it('lets the service role create, read, update, list, empty and delete buckets', async () => {
      const [privateOne, avatars, scratch] = ['private', 'avatars', 'scratch'].map(
        (name) => `${name}-${randomUUID().slice(0, 8)}`,
      );
      expect(await service.storage.createBucket(privateOne!, { public: false })).toEqual({
        data: { name: privateOne },
        error: null,
      });
      const created = await service.storage.createBucket(avatars!, {
        public: true,
        fileSizeLimit: '1KB',
        allowedMimeTypes: ['image/png', 'text/*'],
      });
      expect(created.error).toBeNull();

      const { data: bucket } = await service.storage.getBucket(avatars!);
      expect(bucket).toMatchObject({
        id: avatars,
        name: avatars,
        public: true,
        // Decimal, as Supabase Storage reads "1KB".
        file_size_limit: 1000,
        allowed_mime_types: ['image/png', 'text/*'],
      });

      const { data: list } = await service.storage.listBuckets();
      expect(list!.map((b) => b.id)).toEqual(expect.arrayContaining([avatars, privateOne]));

      const updated = await service.storage.updateBucket(avatars!, {
        public: true,
        fileSizeLimit: 2048,
        allowedMimeTypes: ['image/png', 'text/*'],
      });
      expect(updated).toEqual({ data: { message: 'Successfully updated' }, error: null });
      expect((await service.storage.getBucket(avatars!)).data?.file_size_limit).toBe(2048);

      await service.storage.createBucket(scratch!);
      await service.storage.from(scratch!).upload('a.txt', 'x');
      const notEmpty = await service.storage.deleteBucket(scratch!);
      expect(notEmpty.error).toMatchObject({ status: 409, code: 'ResourceNotEmpty' });
      expect((await service.storage.emptyBucket(scratch!)).error).toBeNull();
      expect(await service.storage.deleteBucket(scratch!)).toEqual({
        data: { message: 'Successfully deleted' },
        error: null,
      });
      expect((await service.storage.getBucket(scratch!)).error).toMatchObject({
        status: 404,
        code: 'NoSuchBucket',
      });
    });

    it('refuses duplicates, bad names and callers RLS does not allow', async () => {
      const { client: alice } = await newUser();
      expect((await service.storage.createBucket('homework')).error).toMatchObject({
        status: 409,
        message: 'The resource already exists',
      });
      expect((await service.storage.createBucket('../etc')).error).toMatchObject({
        status: 400,
        code: 'InvalidBucketName',
      });
      expect(
        (await service.storage.createBucket('big', { public: false, fileSizeLimit: 'lots' })).error,
      ).toMatchObject({ status: 400 });
      // No policies on storage.buckets: users and anon can neither create nor see buckets.
      expect((await alice.storage.createBucket('mine')).error).toMatchObject({
        status: 403,
        message: expect.stringMatching(/row-level security/),
      });
      expect((await anon.storage.listBuckets()).data).toEqual([]);
      expect((await anon.storage.getBucket('homework')).error).toMatchObject({ status: 404 });
    });
  });

  describe('objects under row-level security', () => {
    it('uploads raw and multipart bodies and answers {Id, Key} as storage-js expects', async () => {
      const { id: aliceId, client: alice } = await newUser();
      const raw = await alice.storage
        .from('homework')
        .upload(`${aliceId}/essay.txt`, 'my essay', { contentType: 'text/plain' });
      expect(raw.error).toBeNull();
      expect(raw.data).toEqual({
        id: expect.any(String),
        path: `${aliceId}/essay.txt`,
        fullPath: `homework/${aliceId}/essay.txt`,
      });

      const blob = new Blob([JSON.stringify({ score: 9 })], { type: 'application/json' });
      const multipart = await alice.storage
        .from('homework')
        .upload(`${aliceId}/notes/score.json`, blob, { metadata: { course: 'bio' } });
      expect(multipart.error).toBeNull();

      const info = await alice.storage.from('homework').info(`${aliceId}/notes/score.json`);
      expect(info.data).toMatchObject({
        contentType: 'application/json',
        cacheControl: 'max-age=3600',
        size: blob.size,
        metadata: { course: 'bio' },
      });
      const { rows } = await server.deps.db.query<{ owner: string }>(
        `select owner from storage.objects where name = $1`,
        [`${aliceId}/essay.txt`],
      );
      expect(rows[0]?.owner).toBe(aliceId);

      const download = await alice.storage.from('homework').download(`${aliceId}/essay.txt`);
      expect(await download.data?.text()).toBe('my essay');
    });

    it('keeps each user to their own files: others get 404, 403 or nothing', async () => {
      const { id: aliceId, client: alice } = await newUser();
      const { client: bob } = await newUser();
      await alice.storage.from('homework').upload(`${aliceId}/essay.txt`, 'my essay');
      const hidden = await bob.storage.from('homework').download(`${aliceId}/essay.txt`);
      expect(hidden.error).toMatchObject({ status: 404, message: 'Object not found' });
      expect(
        (await anon.storage.from('homework').download(`${aliceId}/essay.txt`)).error,
      ).toMatchObject({ status: 404 });

      const intoOthersFolder = await bob.storage
        .from('homework')
        .upload(`${aliceId}/evil.txt`, 'x');
      expect(intoOthersFolder.error).toMatchObject({ status: 403 });
      const overwrite = await bob.storage
        .from('homework')
        .upload(`${aliceId}/essay.txt`, 'overwritten', { upsert: true });
      expect(overwrite.error?.status).toBeGreaterThanOrEqual(400);

      expect((await bob.storage.from('homework').list(aliceId)).data).toEqual([]);
      expect((await bob.storage.from('homework').remove([`${aliceId}/essay.txt`])).data).toEqual(
        [],
      );
      expect(
        await (await alice.storage.from('homework').download(`${aliceId}/essay.txt`)).data?.text(),
      ).toBe('my essay');
      expect((await anon.storage.from('homework').upload('anon.txt', 'x')).error).toMatchObject({
        status: 403,
      });
    });

    it('keeps owner_id, so policies written for Supabase with owner_id decide access', async () => {
      await server.deps.db.exec(`
        insert into storage.buckets (id, name) values ('diaries', 'diaries') on conflict do nothing;
        create policy "diaries: write own" on storage.objects for insert to authenticated
          with check (bucket_id = 'diaries' and owner_id = (select auth.uid()::text));
        create policy "diaries: read own" on storage.objects for select to authenticated
          using (bucket_id = 'diaries' and owner_id = (select auth.uid()::text));
      `);
      const { id: aliceId, client: alice } = await newUser();
      const { client: bob } = await newUser();
      expect(
        (await alice.storage.from('diaries').upload('monday.txt', 'dear diary')).error,
      ).toBeNull();
      const { rows } = await server.deps.db.query<{ owner_id: string }>(
        `select owner_id from storage.objects where bucket_id = 'diaries' and name = 'monday.txt'`,
      );
      expect(rows).toEqual([{ owner_id: aliceId }]);
      expect(await (await alice.storage.from('diaries').download('monday.txt')).data?.text()).toBe(
        'dear diary',
      );
      expect((await bob.storage.from('diaries').download('monday.txt')).error).toMatchObject({
        status: 404,
      });
    });

    it('refuses a duplicate without upsert, replaces with x-upsert and updates with PUT', async () => {
      const { id: aliceId, client: alice } = await newUser();
      await alice.storage.from('homework').upload(`${aliceId}/essay.txt`, 'my essay');
      const files = await blobs.count(server);
      const duplicate = await alice.storage
        .from('homework')
        .upload(`${aliceId}/essay.txt`, 'again');
      expect(duplicate.error).toMatchObject({
        status: 409,
        message: 'The resource already exists',
      });
      expect(await blobs.count(server)).toBe(files);

      const upsert = await alice.storage
        .from('homework')
        .upload(`${aliceId}/essay.txt`, 'second draft', { upsert: true });
      expect(upsert.error).toBeNull();
      expect(await blobs.count(server)).toBe(files);
      const updated = await alice.storage.from('homework').update(`${aliceId}/essay.txt`, 'final');
      expect(updated.error).toBeNull();
      expect(
        await (await alice.storage.from('homework').download(`${aliceId}/essay.txt`)).data?.text(),
      ).toBe('final');
      const missing = await alice.storage.from('homework').update(`${aliceId}/none.txt`, 'x');
      expect(missing.error).toMatchObject({ status: 404 });
      expect(await blobs.count(server)).toBe(files);
    });

    it('lists folders and files one level at a time, with search, sorting and paging', async () => {
      const { id: aliceId, client: alice } = await newUser();
      for (const name of ['b.txt', 'a.txt', 'c.md', 'sub/deep.txt'])
        await alice.storage.from('homework').upload(`${aliceId}/list/${name}`, name);

      const { data } = await alice.storage.from('homework').list(`${aliceId}/list`);
      expect(data!.map((e) => e.name)).toEqual(['a.txt', 'b.txt', 'c.md', 'sub']);
      expect(data![3]).toMatchObject({ name: 'sub', id: null, metadata: null });
      expect(data![0]).toMatchObject({
        id: expect.any(String),
        metadata: expect.objectContaining({ size: 5, mimetype: 'text/plain;charset=UTF-8' }),
      });

      const searched = await alice.storage
        .from('homework')
        .list(`${aliceId}/list`, { search: 'b' });
      expect(searched.data!.map((e) => e.name)).toEqual(['b.txt']);
      const paged = await alice.storage.from('homework').list(`${aliceId}/list`, {
        limit: 2,
        offset: 1,
        sortBy: { column: 'name', order: 'desc' },
      });
      expect(paged.data!.map((e) => e.name)).toEqual(['c.md', 'b.txt']);
      const root = await alice.storage.from('homework').list();
      expect(root.data!.map((e) => e.name)).toEqual([aliceId]);
    });

    it('moves and copies objects, and removes them with their bytes', async () => {
      const { id: aliceId, client: alice } = await newUser();
      const bobId = randomUUID();
      const bucket = alice.storage.from('homework');
      expect((await bucket.upload(`${aliceId}/list/a.txt`, 'a.txt')).error).toBeNull();
      expect((await bucket.move(`${aliceId}/list/a.txt`, `${aliceId}/moved/a.txt`)).data).toEqual({
        message: 'Successfully moved',
      });
      expect((await bucket.download(`${aliceId}/list/a.txt`)).error).toMatchObject({ status: 404 });
      expect(await (await bucket.download(`${aliceId}/moved/a.txt`)).data?.text()).toBe('a.txt');
      expect((await bucket.move(`${aliceId}/nope.txt`, `${aliceId}/x.txt`)).error).toMatchObject({
        status: 404,
      });
      expect((await bucket.move(`${aliceId}/moved/a.txt`, `${bobId}/a.txt`)).error).toMatchObject({
        status: 403,
      });

      expect((await bucket.copy(`${aliceId}/moved/a.txt`, `${aliceId}/copy/a.txt`)).data).toEqual({
        path: `homework/${aliceId}/copy/a.txt`,
      });
      // The copy has bytes of its own: this test's blobs, whatever other tests hold.
      const moved = await fileIdOf(`${aliceId}/moved/a.txt`);
      const copy = await fileIdOf(`${aliceId}/copy/a.txt`);
      expect(copy).not.toBe(moved);
      expect(await blobs.has(server, moved)).toBe(true);
      expect(await blobs.has(server, copy)).toBe(true);
      expect(
        (await bucket.copy(`${aliceId}/moved/a.txt`, `${aliceId}/copy/a.txt`)).error,
      ).toMatchObject({ status: 409 });
      expect(await fileIdOf(`${aliceId}/copy/a.txt`)).toBe(copy);

      const removed = await bucket.remove([
        `${aliceId}/moved/a.txt`,
        `${aliceId}/copy/a.txt`,
        'none',
      ]);
      expect(removed.data!.map((o) => o.name).sort()).toEqual([
        `${aliceId}/copy/a.txt`,
        `${aliceId}/moved/a.txt`,
      ]);
      expect(await blobs.has(server, moved)).toBe(false);
      expect(await blobs.has(server, copy)).toBe(false);
    });
  });

  describe('bucket limits and bad input', () => {
    it('refuses oversize files (413) and types the bucket does not allow (415)', async () => {
      const name = `avatars-${randomUUID().slice(0, 8)}`;
      await service.storage.createBucket(name, {
        public: true,
        fileSizeLimit: 2048,
        allowedMimeTypes: ['image/png', 'text/*'],
      });
      const avatars = service.storage.from(name);
      expect(
        (await avatars.upload('small.png', new Blob(['x'], { type: 'image/png' }))).error,
      ).toBeNull();
      const big = await avatars.upload('big.txt', 'x'.repeat(3000), { contentType: 'text/plain' });
      expect(big.error).toMatchObject({ status: 413, code: 'EntityTooLarge' });
      const bigMultipart = await avatars.upload(
        'big.png',
        new Blob(['x'.repeat(3000)], { type: 'image/png' }),
      );
      expect(bigMultipart.error).toMatchObject({ status: 413 });
      const pdf = await avatars.upload('doc.pdf', new Blob(['%PDF'], { type: 'application/pdf' }));
      expect(pdf.error).toMatchObject({
        status: 415,
        code: 'InvalidMimeType',
        message: 'mime type application/pdf is not supported',
      });
      // A streamed body with no Content-Length is cut off at the limit and leaves nothing behind.
      const chunks = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(512).fill(120));
          controller.close();
        },
      });
      const streamed = await fetch(`${server.url}/storage/v1/object/${name}/streamed.txt`, {
        method: 'POST',
        headers: {
          apikey: server.serviceRoleKey,
          authorization: `Bearer ${server.serviceRoleKey}`,
          'content-type': 'text/plain',
        },
        body: chunks,
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
      const tmp = path.join(server.deps.config.storageDir, 'tmp');
      expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
      expect((await avatars.list()).data!.map((e) => e.name)).toEqual(['small.png']);
    });

    it('signs upload URLs for what the caller may write, and uploads through them once signed', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const homework = alice.client.storage.from('homework');
      const signed = await homework.createSignedUploadUrl(`${alice.id}/signed.txt`);
      expect(signed.error).toBeNull();
      expect(signed.data?.signedUrl).toContain(
        `/storage/v1/object/upload/sign/homework/${alice.id}/signed.txt?token=`,
      );
      // Anyone holding the URL may upload once it is signed: no session needed.
      const uploaded = await anon.storage
        .from('homework')
        .uploadToSignedUrl(`${alice.id}/signed.txt`, signed.data!.token, 'signed bytes', {
          contentType: 'text/plain',
        });
      expect(uploaded.error).toBeNull();
      expect(uploaded.data).toMatchObject({
        path: `${alice.id}/signed.txt`,
        fullPath: `homework/${alice.id}/signed.txt`,
      });
      // The object is the signer's: their policies let them read it back.
      const read = await homework.download(`${alice.id}/signed.txt`);
      expect(await read.data?.text()).toBe('signed bytes');

      // No upsert was signed: a second upload with the same token is a duplicate.
      const again = await anon.storage
        .from('homework')
        .uploadToSignedUrl(`${alice.id}/signed.txt`, signed.data!.token, 'again');
      expect(again.error).toMatchObject({ status: 409 });
      const upsert = await homework.createSignedUploadUrl(`${alice.id}/signed.txt`, {
        upsert: true,
      });
      const replaced = await anon.storage
        .from('homework')
        .uploadToSignedUrl(`${alice.id}/signed.txt`, upsert.data!.token, 'replaced');
      expect(replaced.error).toBeNull();
      expect(await (await homework.download(`${alice.id}/signed.txt`)).data?.text()).toBe(
        'replaced',
      );

      // Signing is refused where the caller's policies would refuse the write.
      const intoBobs = await homework.createSignedUploadUrl(`${bob.id}/mine.txt`);
      expect(intoBobs.error).toMatchObject({ status: 403 });
      expect(
        (await anon.storage.from('homework').createSignedUploadUrl('x.txt')).error,
      ).toMatchObject({
        status: 403,
      });
      expect(
        (await alice.client.storage.from('nope').createSignedUploadUrl('x.txt')).error,
      ).toMatchObject({
        status: 404,
        message: 'Bucket not found',
      });

      // A token works for its own object only, and never as a download token (nor the reverse).
      const other = await anon.storage
        .from('homework')
        .uploadToSignedUrl(`${alice.id}/other.txt`, upsert.data!.token, 'x');
      expect(other.error).toMatchObject({ status: 400 });
      const asDownload = await fetch(
        `${server.url}/storage/v1/object/sign/homework/${alice.id}/signed.txt?token=${upsert.data!.token}`,
      );
      expect(asDownload.status).toBe(400);
      const download = await homework.createSignedUrl(`${alice.id}/signed.txt`, 60);
      const downloadToken = new URL(download.data!.signedUrl).searchParams.get('token')!;
      const asUpload = await anon.storage
        .from('homework')
        .uploadToSignedUrl(`${alice.id}/signed.txt`, downloadToken, 'forged');
      expect(asUpload.error).toMatchObject({ status: 400 });
      const forged = await anon.storage
        .from('homework')
        .uploadToSignedUrl(`${alice.id}/signed.txt`, 'not.a.token', 'forged');
      expect(forged.error).toMatchObject({ status: 400 });
      expect(await (await homework.download(`${alice.id}/signed.txt`)).data?.text()).toBe(
        'replaced',
      );
    });

    it('answers an unknown bucket with 404 and a missing or bad token with 403/400', async () => {
      const aliceId = randomUUID();
      expect((await service.storage.from('nope').upload('a.txt', 'x')).error).toMatchObject({
        status: 404,
        message: 'Bucket not found',
      });
      const noAuth = await fetch(`${server.url}/storage/v1/object/homework/${aliceId}/essay.txt`);
      expect(noAuth.status).toBe(403);
      expect(await noAuth.json()).toMatchObject({ statusCode: '403', error: 'Unauthorized' });
      const badToken = await fetch(
        `${server.url}/storage/v1/object/homework/${aliceId}/essay.txt`,
        {
          headers: { apikey: server.anonKey, authorization: 'Bearer not.a.jwt' },
        },
      );
      expect(badToken.status).toBe(400);
      expect(await badToken.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT' });
      const expired = client(server, server.anonKey, await userToken(server, aliceId, '-1m'));
      expect(
        (await expired.storage.from('homework').download(`${aliceId}/essay.txt`)).error,
      ).toMatchObject({ status: 400, message: 'JWT expired' });
    });

    it('answers a route Storage does not have with a storage error naming the route', async () => {
      const headers = {
        apikey: server.serviceRoleKey,
        authorization: `Bearer ${server.serviceRoleKey}`,
      };
      for (const [method, route] of [
        ['GET', '/storage/v1/objects/homework/a.txt'],
        ['POST', '/storage/v1/bucket/homework/rename'],
        ['PATCH', '/storage/v1/object/homework/a.txt'],
        ['GET', '/storage/v1/'],
      ] as const) {
        const response = await fetch(server.url + route, { method, headers });
        expect(response.status, `${method} ${route}`).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        const body = (await response.json()) as {
          statusCode: string;
          error: string;
          message: string;
        };
        expect(body).toEqual({
          statusCode: '404',
          code: 'NotFound',
          error: 'Not Found',
          message: `Route ${method}:${route.slice('/storage/v1'.length)} not found`,
        });
      }
    });

    it('refuses path traversal, NUL bytes, backslashes and empty segments', async () => {
      const base = `${server.url}/storage/v1/object/homework`;
      const headers = {
        apikey: server.serviceRoleKey,
        authorization: `Bearer ${server.serviceRoleKey}`,
      };
      for (const hostile of [
        '..%2F..%2Fetc%2Fpasswd',
        `${randomUUID()}%2F..%2F..%2Fsecret.txt`,
        'a%5C..%5Cb.txt',
        'nul%00byte.txt',
        'a//b.txt',
        '%2Fabsolute.txt',
        'dot%2F.%2Fx.txt',
      ]) {
        const response = await fetch(`${base}/${hostile}`, { method: 'POST', headers, body: 'x' });
        expect(response.status, hostile).toBe(400);
        expect(await response.json(), hostile).toMatchObject({
          statusCode: '400',
          code: 'InvalidKey',
        });
      }
      const badBucket = await fetch(`${server.url}/storage/v1/object/%E0%A4%A`, {
        method: 'DELETE',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"prefixes":["a"]}',
      });
      expect(badBucket.status).toBe(400);
      const viaClient = await service.storage.from('homework').upload('nul\u0000.txt', 'x');
      expect(viaClient.error).toMatchObject({ status: 400, code: 'InvalidKey' });
      const list = await fetch(`${server.url}/storage/v1/object/list/homework`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"prefix": ',
      });
      expect(list.status).toBe(400);
      expect(await list.json()).toMatchObject({
        code: 'InvalidRequest',
        message: expect.stringMatching(/^The request body is not valid JSON/),
      });
      const huge = await fetch(`${server.url}/storage/v1/object/list/homework`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ prefix: 'x'.repeat(2 * 1024 * 1024) }),
      });
      expect(huge.status).toBe(413);
    });
  });

  describe('internal API for server code', () => {
    it('creates a private bucket, writes and reads objects as superuser', async () => {
      const { storage } = server.deps;
      const bucket = await storage.ensureBucket('seeded', { public: false, fileSizeLimit: 4096 });
      expect(bucket).toMatchObject({ id: 'seeded', public: false, file_size_limit: 4096 });
      expect((await storage.ensureBucket('seeded', { fileSizeLimit: 8192 })).file_size_limit).toBe(
        8192,
      );
      await storage.putObject('seeded', 'guides/intro.md', '# Intro', 'text/markdown');
      await storage.putObject('seeded', 'guides/intro.md', '# Intro v2', 'text/markdown');
      const found = await storage.getObject('seeded', 'guides/intro.md');
      expect(found?.bytes.toString()).toBe('# Intro v2');
      expect(found?.row.metadata).toMatchObject({ mimetype: 'text/markdown', size: 10 });
      expect(await storage.getObject('seeded', 'guides/none.md')).toBeUndefined();
      await expect(storage.putObject('seeded', '../x', 'x', 'text/plain')).rejects.toThrow(
        /Invalid key/,
      );
      const signed = await storage.createSignedUrl('seeded', 'guides/intro.md', 60);
      const response = await fetch(`${server.url}/storage/v1${signed}`);
      expect(await response.text()).toBe('# Intro v2');
      // Private bucket, no policies: API callers other than the service role see nothing.
      expect((await anon.storage.from('seeded').download('guides/intro.md')).error).toMatchObject({
        status: 404,
      });
      expect(await storage.remove('seeded', ['guides/intro.md'])).toBe(1);
    });
  });
});

describe('S3 backend settings', () => {
  it('refuses to start on a bucket it cannot reach, and says which', async () => {
    const s3 = await startBlobBackend('s3');
    try {
      await expect(
        startTestServer('pglite', { ...s3.env, S3_BUCKET: 'no-such-bucket' }),
      ).rejects.toThrow(
        /The S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ cannot be reached: NotFound/,
      );
    } finally {
      await s3.stop();
    }
  });

  it('names a missing bucket or half a key pair before anything starts', () => {
    expect(() => loadConfig({}, { STORAGE_BACKEND: 's3' })).toThrow(
      /S3_BUCKET: required when STORAGE_BACKEND=s3/,
    );
    expect(() =>
      loadConfig({}, { STORAGE_BACKEND: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'id' }),
    ).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together/);
    expect(() => loadConfig({}, { STORAGE_BACKEND: 'ftp' })).toThrow(/STORAGE_BACKEND/);
  });
});
