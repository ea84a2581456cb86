/**
 * Storage for server code (as superuser, bypassing row-level security) and the /storage/v1
 * HTTP service. Other server modules use `createStorage`, e.g. to seed a private bucket:
 *
 *   const storage = createStorage({ db, config, keys });
 *   await storage.ensureBucket('data-room', { public: false });
 *   await storage.putObject('data-room', 'guides/intro.pdf', bytes, 'application/pdf');
 *   const found = await storage.getObject('data-room', 'guides/intro.pdf'); // or undefined
 *   const url = await storage.createSignedUrl('data-room', 'guides/intro.pdf', 300);
 *
 * Paths follow the HTTP API's rules (no "..", no empty segments, no backslashes); a bad path
 * or bucket name throws a `StorageError` with a clear message.
 */
import fs from 'node:fs';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import type { KeySet } from '../../keys/key-store';
import { StorageError } from './errors';
import {
  createBucket,
  createStorageCore,
  findBucket,
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
  bytes: Buffer;
}

export interface Storage {
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
  /** The object's row and bytes, or undefined when there is no such object. */
  getObject(bucket: string, path: string): Promise<StoredObject | undefined>;
  /** Absolute path of the file holding an object's bytes, for streaming. */
  filePath(row: ObjectRow): string;
  list(bucket: string, options?: ListOptions): Promise<ListEntry[]>;
  remove(bucket: string, paths: string[]): Promise<number>;
  /** A path to append to `{site}/storage/v1` that downloads the object until it expires. */
  createSignedUrl(bucket: string, path: string, expiresInSeconds: number): Promise<string>;
}

export interface StorageDeps {
  db: Database;
  config: Pick<Config, 'storageDir'>;
  keys?: Pick<KeySet, 'current'>;
  /** Largest object in bytes; default 50 MiB. */
  maxFileBytes?: number;
}

export function createStorage(deps: StorageDeps): Storage {
  const core = createStorageCore(deps);
  const asSuperuser: Run = (fn) => deps.db.transaction(fn);

  return {
    async ensureBucket(id, options = {}) {
      const existing = await findBucket(deps.db, id).catch((error: unknown) => {
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
      return findBucket(deps.db, id);
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

    async getObject(bucket, path) {
      let row: ObjectRow;
      try {
        row = await readObject(asSuperuser, bucket, path);
      } catch (error) {
        if (error instanceof StorageError && error.code === 'NoSuchKey') return undefined;
        throw error;
      }
      const bytes = await fs.promises.readFile(core.blobs.filePath(row.file_id));
      return { row, bytes };
    },

    filePath: (row) => core.blobs.filePath(row.file_id),

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
