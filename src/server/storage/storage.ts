/**
 * Storage for server code (as superuser, bypassing row-level security), built once at start-up
 * and handed to the gateway and the data room. Server modules use it, e.g. to seed a private
 * bucket:
 *
 *   const storage = createStorage({ db, blobs: await createBlobStore(config), keys });
 *   await storage.ensureBucket('data-room', { public: false });
 *   await storage.putObject('data-room', 'guides/intro.pdf', bytes, 'application/pdf');
 *   const found = await storage.getObject('data-room', 'guides/intro.pdf'); // or undefined
 *   const url = await storage.createSignedUrl('data-room', 'guides/intro.pdf', 300);
 *
 * Paths follow the HTTP API's rules (no "..", no empty segments, no backslashes); a bad path
 * or bucket name throws a `StorageError` with a clear message.
 */
import { Readable } from 'node:stream';
import type { Config } from '../config';
import type { Database } from '../db/types';
import type { KeySet } from '../keys/key-store';
import { readAll, type BlobStore } from './blob-store';
import { StorageError } from './errors';
import {
  createImageRenderer,
  withRenderCleanup,
  type ImageRenderer,
  type ImageTransformSettings,
} from './image-transform';
import { createLocalBlobStore } from './local-blob-store';
import {
  createBucket,
  findBucket,
  GLOBAL_MAX_FILE_BYTES,
  listObjects,
  readObject,
  removeObjects,
  updateBucket,
  uploadObject,
  type BucketRow,
  type ListEntry,
  type ListOptions,
  type ObjectRow,
  type Run,
  type StorageCore,
} from './objects';
import { signObjectUrl } from './signed-url';

export { StorageError } from './errors';
export type { BucketRow, ListEntry, ObjectRow } from './objects';

export interface BucketOptions {
  public?: boolean;
  /** Bytes. */
  fileSizeLimit?: number | null;
  allowedMimeTypes?: string[] | null;
}

export interface StoredObject {
  row: ObjectRow;
  bytes: Buffer<ArrayBuffer>;
}

export interface Storage {
  /** The operations' dependencies, for the HTTP service, which runs them as the caller. */
  readonly core: StorageCore;
  /** Image transformations (`/render/image`); undefined when turned off. */
  readonly images?: ImageRenderer;
  /**
   * Start-up: checks the backend is reachable and removes temp files of uploads a crash cut
   * short (older than an hour: nothing will finish them). Returns how many it removed.
   */
  prepare(): Promise<number>;
  /**
   * Removes temp files of uploads an hour old: a client that vanished mid-body, or a crash,
   * left them, and nothing will finish them. Returns how many it removed.
   */
  sweepStaleUploads(): Promise<number>;
  /** Creates the bucket, or brings an existing one to these settings. */
  ensureBucket(id: string, options?: BucketOptions): Promise<BucketRow>;
  /** Writes (or replaces) an object. Respects the bucket's size and type limits. */
  putObject(
    bucket: string,
    path: string,
    bytes: Uint8Array | string,
    contentType: string,
    options?: { cacheControl?: string; owner?: string | null; upsert?: boolean },
  ): Promise<{ id: string; key: string }>;
  /**
   * Writes (or replaces) an object from a stream the server produces, without holding it in
   * memory (local disk: temp file renamed into place; S3: multipart upload), up to `maxBytes`
   * (or the bucket's own limit).
   */
  putObjectStream(
    bucket: string,
    path: string,
    source: Readable,
    contentType: string,
    options: { maxBytes: number; owner?: string | null },
  ): Promise<{ id: string; key: string }>;
  /** The object's row and a stream of its bytes, or undefined when there is no such object. */
  openObject(bucket: string, path: string): Promise<{ row: ObjectRow; body: Readable } | undefined>;
  /** The object's row and bytes, or undefined when there is no such object. */
  getObject(bucket: string, path: string): Promise<StoredObject | undefined>;
  /** An object's bytes, for a row already read. */
  readBytes(row: ObjectRow): Promise<Buffer<ArrayBuffer>>;
  list(bucket: string, options?: ListOptions): Promise<ListEntry[]>;
  remove(bucket: string, paths: string[]): Promise<number>;
  /** A path to append to `{site}/storage/v1` that downloads the object until it expires. */
  createSignedUrl(bucket: string, path: string, expiresInSeconds: number): Promise<string>;
}

export interface StorageDeps {
  db: Database;
  blobs: BlobStore;
  keys?: Pick<KeySet, 'current'>;
  /** Largest object in bytes; default 50 MiB. */
  maxFileBytes?: number;
  /** Image transformations' limits and cache; none are served without them or when disabled. */
  images?: ImageTransformSettings;
}

/**
 * The blob store the configuration names (STORAGE_BACKEND). The AWS SDK takes over a second to
 * load, so only a deployment that uses S3 loads it.
 */
export async function createBlobStore(
  config: Pick<Config, 'storageDir' | 'storageBackend'>,
): Promise<BlobStore> {
  const backend = config.storageBackend;
  if (backend.kind === 'local') return createLocalBlobStore(config.storageDir);
  const { createS3BlobStore } = await import('./s3-blob-store');
  return createS3BlobStore(backend, config.storageDir);
}

/** An upload's temp file this old belongs to no upload in flight. */
export const STALE_UPLOAD_MS = 60 * 60 * 1000;

export function createStorage(deps: StorageDeps): Storage {
  const images = deps.images?.enabled ? createImageRenderer(deps.images, deps.blobs) : undefined;
  const core: StorageCore = {
    db: deps.db,
    blobs: images ? withRenderCleanup(deps.blobs, images) : deps.blobs,
    maxFileBytes: deps.maxFileBytes ?? GLOBAL_MAX_FILE_BYTES,
  };
  const asSuperuser: Run = (fn) => deps.db.transaction(fn);
  const sweepStaleUploads = () => core.blobs.sweepTemp(STALE_UPLOAD_MS);
  /** The object's row, or undefined when the bucket has no such object. */
  async function findObject(bucket: string, path: string): Promise<ObjectRow | undefined> {
    try {
      return await readObject(asSuperuser, bucket, path);
    } catch (error) {
      if (error instanceof StorageError && error.code === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  return {
    core,
    images,

    async prepare() {
      await core.blobs.check();
      return sweepStaleUploads();
    },

    sweepStaleUploads,

    async ensureBucket(id, options = {}) {
      const existing = await findBucket(core.db, id).catch((error: unknown) => {
        if (error instanceof StorageError && error.code === 'NoSuchBucket') return undefined;
        throw error;
      });
      const input = {
        id,
        public: options.public ?? existing?.public ?? false,
        file_size_limit:
          options.fileSizeLimit === undefined ? existing?.file_size_limit : options.fileSizeLimit,
        allowed_mime_types:
          options.allowedMimeTypes === undefined
            ? existing?.allowed_mime_types
            : options.allowedMimeTypes,
      };
      if (existing) await updateBucket(asSuperuser, id, input);
      else
        await createBucket(asSuperuser, input, null).catch((error: unknown) => {
          // Another process created it first: bring it to these settings instead.
          if (error instanceof StorageError && error.code === 'BucketAlreadyExists')
            return updateBucket(asSuperuser, id, input);
          throw error;
        });
      return findBucket(core.db, id);
    },

    putObject(bucket, path, bytes, contentType, options = {}) {
      const body = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
      return uploadObject(core, asSuperuser, {
        bucket,
        key: path,
        body,
        declaredLength: body.byteLength,
        contentType,
        cacheControl: options.cacheControl ?? 'no-cache',
        owner: options.owner ?? null,
        mode: 'create',
        upsert: options.upsert ?? true,
      });
    },

    putObjectStream(bucket, path, source, contentType, options) {
      return uploadObject(core, asSuperuser, {
        bucket,
        key: path,
        body: source,
        contentType,
        cacheControl: 'no-cache',
        owner: options.owner ?? null,
        mode: 'create',
        upsert: true,
        produced: { maxBytes: options.maxBytes },
      });
    },

    async openObject(bucket, path) {
      const row = await findObject(bucket, path);
      if (!row) return undefined;
      const data = await core.blobs.read(row.file_id);
      return { row, body: Buffer.isBuffer(data) ? Readable.from([data]) : data };
    },

    async getObject(bucket, path) {
      const row = await findObject(bucket, path);
      if (!row) return undefined;
      return { row, bytes: await readAll(await core.blobs.read(row.file_id)) };
    },

    readBytes: async (row) => readAll(await core.blobs.read(row.file_id)),

    list: (bucket, options = {}) => listObjects(asSuperuser, bucket, options),

    async remove(bucket, paths) {
      return (await removeObjects(core, asSuperuser, bucket, paths)).length;
    },

    async createSignedUrl(bucket, path, expiresInSeconds) {
      if (!deps.keys) throw new Error('createStorage needs `keys` to sign URLs');
      await readObject(asSuperuser, bucket, path);
      return signObjectUrl(deps.keys, bucket, path, expiresInSeconds);
    },
  };
}
