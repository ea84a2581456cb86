/**
 * /storage/v1: the Supabase Storage API subset that supabase-js 2.x calls (wire contract §8).
 * Object rows are read and written under the caller's role, so RLS on storage.objects decides.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { ApiEnv, GatewayDeps } from '../context';
import { CallerError, identifyCaller } from '../api-auth';
import type { JwtClaims } from '../../db/types';
import { createMiddleware } from 'hono/factory';
import { BodyError, readBodyLimited } from '../ops/body';
import { apiCors } from '../ops/cors';
import { cachedVerifier } from '../ops/verified-tokens';
import { StorageError, storageErrors } from '../../storage/errors';
import {
  copyObject,
  createBucket,
  deleteBucket,
  emptyBucket,
  findBucket,
  getBucket,
  listBuckets,
  listObjects,
  listObjectsV2,
  moveObject,
  ownerFromSub,
  readObject,
  readPublicObject,
  removeObjects,
  tryObjectRowWrite,
  updateBucket,
  uploadObject,
  type BucketRow,
  type ObjectRow,
  type Run,
} from '../../storage/objects';
import {
  checkTransform,
  transformFromString,
  transformToString,
  type Transform,
} from '../../storage/image-transform';
import { bucketFromSegment, checkObjectKey, splitBucketAndKey } from '../../storage/paths';
import {
  checkExpiresIn,
  signObjectUrl,
  signUploadUrl,
  verifyObjectToken,
  verifyUploadToken,
  type SignedUpload,
} from '../../storage/signed-url';
import {
  createBucketBody,
  listBody,
  listV2Body,
  moveBody,
  removeBody,
  signBody,
  storageJson,
  updateBucketBody,
} from './bodies';
import { storageErrorBody, storageStatus } from './errors';
import { serveObject, serveRendered } from './serve';

const OBJECT_PREFIX = '/storage/v1/object/';
const RENDER_PREFIX = '/storage/v1/render/image/';

type StorageContext = Context<ApiEnv>;

export function storageRoutes(
  deps: Pick<GatewayDeps, 'db' | 'keys' | 'verifier' | 'log' | 'storage'>,
) {
  const { core } = deps.storage;
  const verifier = cachedVerifier(deps.verifier);
  // Single-statement reads need no transaction: one round trip instead of three.
  const superuser: Run = (fn) => fn(deps.db);
  const app = new Hono<ApiEnv>();

  app.use('*', apiCors());

  app.onError((error, c) => {
    if (error instanceof StorageError) {
      const status = storageStatus(error);
      if (status >= 500)
        deps.log.error('storage error', { path: c.req.path, error: error.message });
      // The rest of a refused body may still be on its way: this connection cannot be reused.
      if (status === 413) c.header('Connection', 'close');
      return c.json(storageErrorBody(error), status);
    }
    deps.log.error('storage request failed', {
      method: c.req.method,
      path: c.req.path,
      error: (error as Error).message,
    });
    return c.json(storageErrorBody(storageErrors.internal()), 500);
  });

  /** Resolves the caller's claims; public and signed downloads skip this. */
  async function authenticate(c: StorageContext): Promise<JwtClaims> {
    try {
      return (await identifyCaller(c, verifier)).claims;
    } catch (error) {
      if (!(error instanceof CallerError)) throw error;
      if (error.reason === 'missing')
        throw storageErrors.accessDenied('Missing authorization header or apikey');
      throw storageErrors.invalidJwt(error.message);
    }
  }

  /**
   * Runs work under the caller's role and claims, so RLS decides. Every storage operation is
   * one statement per run, which `queryAsRole` sends in one round trip on PostgreSQL (the
   * same transaction-local role and claims as `asRole`); a second statement is refused rather
   * than run outside that transaction.
   */
  function asCaller(claims: JwtClaims): Run {
    return (fn) => {
      let used = false;
      return fn({
        query: (sql, params) => {
          if (used) return Promise.reject(new Error('asCaller runs one statement per call'));
          used = true;
          return deps.db.queryAsRole(claims, sql, params);
        },
        exec: () => Promise.reject(new Error('asCaller runs one statement per call')),
      });
    };
  }

  /** The caller first, then the body: an unknown caller learns nothing about the schemas. */
  const caller = createMiddleware<ApiEnv>(async (c, next) => {
    c.set('claims', await authenticate(c));
    await next();
  });

  /** The raw path after /object/ and a sub-route (e.g. "public/"), percent-encoding intact. */
  function objectPath(c: StorageContext, after = ''): string {
    const pathname = new URL(c.req.url).pathname;
    return pathname.slice(OBJECT_PREFIX.length + after.length);
  }

  function bucketJson(row: BucketRow) {
    return {
      id: row.id,
      name: row.name,
      owner: row.owner ?? '',
      public: row.public,
      file_size_limit: row.file_size_limit,
      allowed_mime_types: row.allowed_mime_types,
      created_at: row.created_at,
      updated_at: row.updated_at,
      type: 'STANDARD',
    };
  }

  // Buckets --------------------------------------------------------------------------------

  app.get('/bucket', async (c) => {
    const claims = await authenticate(c);
    const rows = await listBuckets(asCaller(claims), c.req.query());
    return c.json(rows.map(bucketJson));
  });

  app.get('/bucket/:id', async (c) => {
    const claims = await authenticate(c);
    return c.json(bucketJson(await getBucket(asCaller(claims), c.req.param('id'))));
  });

  app.post('/bucket', caller, storageJson(createBucketBody), async (c) => {
    const claims = c.get('claims');
    const body = c.req.valid('json');
    return c.json(await createBucket(asCaller(claims), body, ownerFromSub(claims.sub)));
  });

  app.put('/bucket/:id', caller, storageJson(updateBucketBody), async (c) => {
    await updateBucket(asCaller(c.get('claims')), c.req.param('id'), c.req.valid('json'));
    return c.json({ message: 'Successfully updated' });
  });

  app.post('/bucket/:id/empty', async (c) => {
    const claims = await authenticate(c);
    await emptyBucket(core, asCaller(claims), c.req.param('id'));
    return c.json({ message: 'Successfully emptied' });
  });

  app.delete('/bucket/:id', async (c) => {
    const claims = await authenticate(c);
    await deleteBucket(core, asCaller(claims), c.req.param('id'));
    return c.json({ message: 'Successfully deleted' });
  });

  // Objects: listing, moving, copying, signing ----------------------------------------------

  app.post('/object/list/:bucket', caller, storageJson(listBody), async (c) => {
    const { prefix, search, ...options } = c.req.valid('json');
    const entries = await listObjects(asCaller(c.get('claims')), c.req.param('bucket'), {
      ...options,
      prefix: prefix ?? undefined,
      search: search ?? undefined,
    });
    return c.json(entries);
  });

  app.post('/object/list-v2/:bucket', caller, storageJson(listV2Body), async (c) => {
    const { with_delimiter: withDelimiter, ...options } = c.req.valid('json');
    const page = await listObjectsV2(asCaller(c.get('claims')), c.req.param('bucket'), {
      ...options,
      withDelimiter,
    });
    return c.json(page);
  });

  app.post('/object/move', caller, storageJson(moveBody), async (c) => {
    const claims = c.get('claims');
    const { from, to } = moveEndpoints(c.req.valid('json'));
    await moveObject(core, asCaller(claims), from, to, ownerFromSub(claims.sub));
    return c.json({ message: 'Successfully moved' });
  });

  app.post('/object/copy', caller, storageJson(moveBody), async (c) => {
    const claims = c.get('claims');
    const body = c.req.valid('json');
    const { from, to } = moveEndpoints(body);
    const copied = await copyObject(core, asCaller(claims), from, to, {
      owner: ownerFromSub(claims.sub),
      upsert: c.req.header('x-upsert') === 'true',
      copyMetadata: body.copyMetadata !== false,
    });
    return c.json({ Id: copied.id, Key: copied.key, id: copied.id });
  });

  app.post('/object/sign/*', caller, storageJson(signBody), async (c) => {
    const claims = c.get('claims');
    const body = c.req.valid('json');
    const expiresIn = checkExpiresIn(body.expiresIn);
    const rest = objectPath(c, 'sign/');
    if (!rest.includes('/') || rest.endsWith('/')) {
      // Several paths in one bucket: one entry per path, an error for each unavailable one.
      const bucket = bucketFromSegment(rest.replace(/\/$/, ''));
      if (!body.paths) throw storageErrors.invalidRequest('paths must be a list of object paths');
      const run = asCaller(claims);
      const results = [];
      for (const path of body.paths) {
        try {
          await readObject(run, bucket, path);
          results.push({
            error: null,
            path,
            signedURL: await signObjectUrl(deps.keys, bucket, path, expiresIn),
          });
        } catch (error) {
          if (!(error instanceof StorageError)) throw error;
          results.push({
            error: 'Either the object does not exist or you do not have access to it',
            path,
            signedURL: null,
          });
        }
      }
      return c.json(results);
    }
    const { bucket, key } = splitBucketAndKey(rest);
    // As upstream: with transformations off, a `transform` is ignored and the URL is the object's.
    const transformations =
      body.transform && deps.storage.images
        ? transformToString(checkTransform(body.transform, 'body/transform'))
        : undefined;
    await readObject(asCaller(claims), bucket, key);
    return c.json({
      signedURL: await signObjectUrl(
        deps.keys,
        bucket,
        key,
        expiresIn,
        transformations || undefined,
      ),
    });
  });

  app.get('/object/sign/*', async (c) => {
    const { bucket, key } = splitBucketAndKey(objectPath(c, 'sign/'));
    await verifyObjectToken(deps.keys, c.req.query('token'), bucket, key);
    const row = await readObject(superuser, bucket, key);
    return download(c, row);
  });

  // Objects: downloads -----------------------------------------------------------------------

  function download(c: StorageContext, row: Awaited<ReturnType<typeof readObject>>) {
    return serveObject(row, core.blobs, {
      download: c.req.query('download'),
      range: c.req.header('range'),
      ifNoneMatch: c.req.header('if-none-match'),
    });
  }

  app.get('/object/public/*', async (c) => {
    const { bucket, key } = splitBucketAndKey(objectPath(c, 'public/'));
    return download(c, await readPublicObject(deps.db, bucket, key));
  });

  app.get('/object/authenticated/*', async (c) => {
    const claims = await authenticate(c);
    const { bucket, key } = splitBucketAndKey(objectPath(c, 'authenticated/'));
    return download(c, await readObject(asCaller(claims), bucket, key));
  });

  app.get('/object/info/*', async (c) => {
    let rest = objectPath(c, 'info/');
    let run: Run;
    if (rest.startsWith('public/')) {
      rest = rest.slice('public/'.length);
      const { bucket } = splitBucketAndKey(rest);
      if (!(await findBucket(deps.db, bucket)).public) throw storageErrors.noSuchBucket();
      run = superuser;
    } else {
      if (rest.startsWith('authenticated/')) rest = rest.slice('authenticated/'.length);
      run = asCaller(await authenticate(c));
    }
    const { bucket, key } = splitBucketAndKey(rest);
    const row = await readObject(run, bucket, key);
    return c.json({
      id: row.id,
      name: row.name,
      bucket_id: row.bucket_id,
      version: row.file_id,
      size: row.metadata.size,
      content_type: row.metadata.mimetype,
      cache_control: row.metadata.cacheControl,
      etag: row.metadata.eTag,
      metadata: row.user_metadata ?? {},
      last_modified: row.updated_at,
      created_at: row.created_at,
    });
  });

  app.get('/object/*', async (c) => {
    const claims = await authenticate(c);
    const { bucket, key } = splitBucketAndKey(objectPath(c));
    return download(c, await readObject(asCaller(claims), bucket, key));
  });

  // Image transformations (storage-js `transform` options) ----------------------------------

  const images = deps.storage.images;
  if (images) {
    /** The path after /render/image/ and a sub-route, percent-encoding intact. */
    const renderPath = (c: StorageContext, after: string) =>
      new URL(c.req.url).pathname.slice(RENDER_PREFIX.length + after.length);

    const render = async (c: StorageContext, row: ObjectRow, transform: Transform) =>
      serveRendered(row, await images.render(row, transform, c.req.header('accept')), {
        download: c.req.query('download'),
        ifNoneMatch: c.req.header('if-none-match'),
      });

    app.get('/render/image/public/*', async (c) => {
      const transform = checkTransform(c.req.query(), 'querystring');
      const { bucket, key } = splitBucketAndKey(renderPath(c, 'public/'));
      return render(c, await readPublicObject(deps.db, bucket, key), transform);
    });

    app.get('/render/image/authenticated/*', async (c) => {
      const claims = await authenticate(c);
      const transform = checkTransform(c.req.query(), 'querystring');
      const { bucket, key } = splitBucketAndKey(renderPath(c, 'authenticated/'));
      return render(c, await readObject(asCaller(claims), bucket, key), transform);
    });

    // The token fixes the transformation; query options other than `download` are ignored.
    app.get('/render/image/sign/*', async (c) => {
      const { bucket, key } = splitBucketAndKey(renderPath(c, 'sign/'));
      const { transformations } = await verifyObjectToken(
        deps.keys,
        c.req.query('token'),
        bucket,
        key,
      );
      const row = await readObject(superuser, bucket, key);
      return render(c, row, transformFromString(transformations ?? ''));
    });
  }

  // Objects: upload, update, delete ----------------------------------------------------------

  /** Who an upload writes as: the caller, or (for a signed upload URL) its signer's grant. */
  type Uploader =
    | { kind: 'caller'; claims: JwtClaims }
    | { kind: 'signed'; bucket: string; key: string; upload: SignedUpload };

  async function upload(c: StorageContext, mode: 'create' | 'update', signed?: Uploader) {
    const uploader = signed ?? { kind: 'caller', claims: await authenticate(c) };
    const { bucket, key } =
      uploader.kind === 'signed' ? uploader : splitBucketAndKey(objectPath(c));
    // A signed upload was checked against the signer's policies when it was signed, and
    // writes as Supabase Storage does: as the platform, owned by the signer.
    const run = uploader.kind === 'caller' ? asCaller(uploader.claims) : superuser;
    const contentType = c.req.header('content-type') ?? '';
    const declared = c.req.header('content-length');
    const input = {
      bucket,
      key,
      owner: uploader.kind === 'caller' ? ownerFromSub(uploader.claims.sub) : uploader.upload.owner,
      mode,
      upsert:
        uploader.kind === 'caller'
          ? mode === 'create' && c.req.header('x-upsert') === 'true'
          : uploader.upload.upsert,
    };
    let result;
    if (/^multipart\/form-data/i.test(contentType)) {
      // Multipart is parsed in memory, so the body is read only up to the global cap (plus
      // room for the form's own fields), whether or not it declares its length.
      await findBucket(deps.db, bucket);
      let bytes: ArrayBuffer | undefined;
      try {
        bytes = await readBodyLimited(c.req.raw, core.maxFileBytes + 64 * 1024);
      } catch (error) {
        if (error instanceof BodyError) throw storageErrors.entityTooLarge(core.maxFileBytes);
        throw error;
      }
      let form: FormData;
      try {
        form = await new Response(bytes ?? null, {
          headers: { 'content-type': contentType },
        }).formData();
      } catch {
        throw storageErrors.invalidRequest('The multipart body could not be read');
      }
      const file = [...form.values()].find((value): value is File => typeof value !== 'string');
      if (!file) throw storageErrors.invalidRequest('The multipart body has no file part');
      const cacheControl = form.get('cacheControl');
      result = await uploadObject(core, run, {
        ...input,
        body: new Uint8Array(await file.arrayBuffer()),
        declaredLength: file.size,
        contentType: file.type || 'application/octet-stream',
        cacheControl: normaliseCacheControl(
          typeof cacheControl === 'string' ? cacheControl : undefined,
        ),
        userMetadata: parseUserMetadata(form.get('metadata'), false),
      });
    } else {
      const body = c.req.raw.body ?? new Uint8Array(0);
      result = await uploadObject(core, run, {
        ...input,
        body,
        declaredLength: declared ? Number(declared) : undefined,
        contentType: contentType || 'application/octet-stream',
        cacheControl: normaliseCacheControl(c.req.header('cache-control')),
        userMetadata: parseUserMetadata(c.req.header('x-metadata') ?? null, true),
      });
    }
    return c.json({
      Id: result.id,
      Key: result.key,
      id: result.id,
      path: key,
      fullPath: result.key,
    });
  }

  // Signed upload URLs (storage-js createSignedUploadUrl / uploadToSignedUrl).
  app.post('/object/upload/sign/*', async (c) => {
    const claims = await authenticate(c);
    const { bucket, key } = splitBucketAndKey(objectPath(c, 'upload/sign/'));
    await findBucket(deps.db, bucket);
    const grant: SignedUpload = {
      owner: ownerFromSub(claims.sub),
      upsert: c.req.header('x-upsert') === 'true',
    };
    // The write is tried under the caller's policies and always rolled back.
    const tried = new Error('tried');
    await deps.db
      .asRole(claims, async (tx) => {
        await tryObjectRowWrite(tx, { bucket, key, ...grant });
        throw tried;
      })
      .catch((error: unknown) => {
        if (error !== tried) throw error;
      });
    return c.json(await signUploadUrl(deps.keys, bucket, key, grant));
  });

  app.put('/object/upload/sign/*', async (c) => {
    const { bucket, key } = splitBucketAndKey(objectPath(c, 'upload/sign/'));
    const grant = await verifyUploadToken(deps.keys, c.req.query('token'), bucket, key);
    return upload(c, 'create', { kind: 'signed', bucket, key, upload: grant });
  });

  app.post('/object/*', (c) => upload(c, 'create'));
  app.put('/object/*', (c) => upload(c, 'update'));

  // One path removes one object (no body); a bucket alone removes the listed `prefixes`.
  app.delete('/object/*', caller, storageJson(removeBody), async (c) => {
    const claims = c.get('claims');
    const rest = objectPath(c).replace(/\/$/, '');
    if (!rest.includes('/')) {
      const bucket = bucketFromSegment(rest);
      const { prefixes } = c.req.valid('json');
      if (!prefixes) throw storageErrors.invalidRequest('prefixes must be a list of object paths');
      const rows = await removeObjects(core, asCaller(claims), bucket, prefixes);
      return c.json(
        rows.map((row) => ({
          bucket_id: row.bucket_id,
          name: row.name,
          id: row.id,
          owner: row.owner,
          updated_at: row.updated_at,
          created_at: row.created_at,
          last_accessed_at: row.last_accessed_at,
          metadata: row.metadata,
        })),
      );
    }
    const { bucket, key } = splitBucketAndKey(rest);
    const rows = await removeObjects(core, asCaller(claims), bucket, [checkObjectKey(key)]);
    if (rows.length === 0) throw storageErrors.noSuchKey();
    return c.json({ message: 'Successfully deleted' });
  });

  // Any other method and path: Storage's own 404 (as its HTTP framework words it), never the
  // web app's page or a misleading "Bucket not found".
  app.all('*', (c) => {
    const route = c.req.path.replace(/^\/storage\/v1/, '') || '/';
    return c.json(
      {
        statusCode: '404',
        code: 'NotFound',
        error: 'Not Found',
        message: `Route ${c.req.method}:${route} not found`,
      },
      404,
    );
  });

  return app;
}

/** The source and destination of a move or copy; the destination bucket defaults to the source's. */
function moveEndpoints(body: z.output<typeof moveBody>) {
  return {
    from: { bucket: body.bucketId, key: body.sourceKey },
    to: { bucket: body.destinationBucket ?? body.bucketId, key: body.destinationKey },
  };
}

/** Supabase stores "3600" from a form field as "max-age=3600". */
function normaliseCacheControl(value: string | undefined): string {
  if (!value || value.trim() === '') return 'no-cache';
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? `max-age=${trimmed}` : trimmed.slice(0, 200);
}

function parseUserMetadata(
  value: FormDataEntryValue | string | null,
  base64: boolean,
): Record<string, unknown> | null {
  if (value === null || typeof value !== 'string' || value === '') return null;
  try {
    const text = base64 ? Buffer.from(value, 'base64').toString('utf8') : value;
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw storageErrors.invalidRequest('metadata must be a JSON object');
}
