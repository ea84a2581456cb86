/**
 * Bucket and object operations. Every function takes a `Run`: either a transaction under the
 * request's role (so row-level security on storage.objects decides) or a superuser
 * transaction for internal callers. Bucket settings (limits, public flag) are read as
 * superuser, as Supabase Storage does, so apps need no policies on storage.buckets to upload.
 */
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../db/types';
import type { BlobSource, BlobStore } from './blob-store';
import { fromDatabaseError, storageErrors } from './errors';
import {
  decodeListCursor,
  encodeListCursor,
  type ListSortColumn,
  type ListSortOrder,
} from './list-cursor';
import { checkBucketName, checkObjectKey, mimeTypeAllowed, parseSizeLimit } from './paths';

export type Run = <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>;

export type BucketRow = {
  id: string;
  name: string;
  owner: string | null;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: Date;
  updated_at: Date;
};

export interface ObjectMetadata {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
}

export type ObjectRow = {
  id: string;
  bucket_id: string;
  name: string;
  owner: string | null;
  metadata: ObjectMetadata;
  user_metadata: Record<string, unknown> | null;
  file_id: string;
  created_at: Date;
  updated_at: Date;
  last_accessed_at: Date;
};

/** Supabase's hosted default for the largest upload; a bucket limit can only lower it. */
export const GLOBAL_MAX_FILE_BYTES = 50 * 1024 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function ownerFromSub(sub: unknown): string | null {
  return typeof sub === 'string' && UUID.test(sub) ? sub : null;
}

/** What every object operation needs besides the caller's `Run`. */
export interface StorageCore {
  db: Database;
  blobs: BlobStore;
  /** The largest object any bucket accepts; a bucket's own limit can only lower it. */
  maxFileBytes: number;
}

/** The one size-limit formula: the bucket's limit, capped by the global one. */
export function sizeLimit(core: StorageCore, bucket: BucketRow): number {
  return Math.min(bucket.file_size_limit ?? core.maxFileBytes, core.maxFileBytes);
}

/** Bucket settings as superuser; 404 when there is no such bucket. */
export async function findBucket(db: Queryable, id: string): Promise<BucketRow> {
  const { rows } = await db.query<BucketRow>('select * from storage.buckets where id = $1', [id]);
  if (!rows[0]) throw storageErrors.noSuchBucket();
  return rows[0];
}

export interface UploadInput {
  bucket: string;
  key: string;
  body: BlobSource;
  /** Declared length, to refuse an oversize upload before reading it. */
  declaredLength?: number;
  contentType: string;
  cacheControl: string;
  userMetadata?: Record<string, unknown> | null;
  owner: string | null;
  /** create: insert (x-upsert replaces); update: the object must exist. */
  mode: 'create' | 'update';
  upsert: boolean;
  /**
   * A body the server produces as it goes (an export being zipped), written with the blob
   * store's streaming write, up to this many bytes (not capped by the upload limit, which is
   * for clients' bodies). A bucket's own limit still applies.
   */
  produced?: { maxBytes: number };
}

export async function uploadObject(
  core: StorageCore,
  run: Run,
  input: UploadInput,
): Promise<{ id: string; key: string }> {
  const bucket = await findBucket(core.db, checkBucketName(input.bucket));
  const key = checkObjectKey(input.key);
  if (!mimeTypeAllowed(input.contentType, bucket.allowed_mime_types))
    throw storageErrors.invalidMimeType(input.contentType);
  const limit = input.produced
    ? Math.min(bucket.file_size_limit ?? input.produced.maxBytes, input.produced.maxBytes)
    : sizeLimit(core, bucket);
  if (input.declaredLength !== undefined && input.declaredLength > limit)
    throw storageErrors.entityTooLarge(limit);

  const blob = input.produced
    ? await core.blobs.writeStream(input.body, limit)
    : await core.blobs.write(input.body, limit);
  return saveObjectRow(core, run, {
    bucket: bucket.id,
    key,
    owner: input.owner,
    metadata: {
      eTag: blob.eTag,
      size: blob.size,
      mimetype: input.contentType,
      cacheControl: input.cacheControl,
      lastModified: new Date().toISOString(),
      contentLength: blob.size,
      httpStatusCode: 200,
    },
    userMetadata: input.userMetadata ?? null,
    fileId: blob.fileId,
    write: input.mode === 'update' ? 'update' : input.upsert ? 'upsert' : 'insert',
  });
}

interface ObjectRowInput {
  bucket: string;
  key: string;
  owner: string | null;
  metadata: ObjectMetadata;
  userMetadata: Record<string, unknown> | null;
  /** A blob already written for this row. */
  fileId: string;
  /** insert: a new name only; upsert: insert or replace; update: replace an existing one. */
  write: 'insert' | 'upsert' | 'update';
}

/**
 * The statement that writes an object's row; parameters: bucket, name, owner, metadata, user
 * metadata, file id. It answers the row's id and the file id it pointed at before.
 */
function objectRowSql(write: ObjectRowInput['write']): string {
  const replace = `owner = $3, metadata = $4, user_metadata = $5, file_id = $6,
                   updated_at = now(), last_accessed_at = now()`;
  // An UPDATE for PUT, so that RLS's update policies alone decide, as in Supabase.
  if (write === 'update') {
    return `update storage.objects o set ${replace}
              from (select id, file_id from storage.objects where bucket_id = $1 and name = $2) old
             where o.id = old.id
         returning o.id, old.file_id as old_file_id`;
  }
  return `with old as (select file_id from storage.objects where bucket_id = $1 and name = $2)
          insert into storage.objects (bucket_id, name, owner, metadata, user_metadata, file_id)
          values ($1, $2, $3, $4, $5, $6)
          ${write === 'upsert' ? `on conflict (bucket_id, name) do update set ${replace}` : ''}
          returning id, (select file_id from old) as old_file_id`;
}

/**
 * Tries, inside the caller's transaction, the row write an upload would make, so the caller
 * learns now whether their policies allow it (Supabase checks this before signing an upload
 * URL). The caller rolls the transaction back. Refusals are the upload's own errors.
 */
export async function tryObjectRowWrite(
  tx: Queryable,
  input: { bucket: string; key: string; owner: string | null; upsert: boolean },
): Promise<void> {
  const params = [input.bucket, checkObjectKey(input.key), input.owner, '{}', null, randomUUID()];
  try {
    await tx.query(objectRowSql(input.upsert ? 'upsert' : 'insert'), params);
  } catch (error) {
    fromDatabaseError(error, storageErrors.keyExists);
  }
}

/**
 * Points a row at a freshly written blob, under the caller's role, and settles the blobs: the
 * new one is removed when the row was refused (or, for an update, not found), the replaced
 * one when the row now points elsewhere. Uploads and copies both come through here.
 */
async function saveObjectRow(
  core: StorageCore,
  run: Run,
  input: ObjectRowInput,
): Promise<{ id: string; key: string }> {
  const params = [
    input.bucket,
    input.key,
    input.owner,
    JSON.stringify(input.metadata),
    input.userMetadata ? JSON.stringify(input.userMetadata) : null,
    input.fileId,
  ];
  const sql = objectRowSql(input.write);
  let saved: { id: string; old_file_id: string | null } | undefined;
  try {
    saved = await run(async (tx) => {
      const { rows } = await tx.query<{ id: string; old_file_id: string | null }>(sql, params);
      return rows[0];
    });
  } catch (error) {
    await core.blobs.remove([input.fileId]);
    fromDatabaseError(error, storageErrors.keyExists);
  }
  if (!saved) {
    await core.blobs.remove([input.fileId]);
    throw storageErrors.noSuchKey();
  }
  if (saved.old_file_id && saved.old_file_id !== input.fileId)
    await core.blobs.remove([saved.old_file_id]);
  return { id: saved.id, key: `${input.bucket}/${input.key}` };
}

/** The object's row as the caller may see it; 404 when missing or hidden by RLS. */
export async function readObject(run: Run, bucket: string, key: string): Promise<ObjectRow> {
  checkBucketName(bucket);
  checkObjectKey(key);
  const row = await run(async (tx) => {
    const { rows } = await tx.query<ObjectRow>(
      'select * from storage.objects where bucket_id = $1 and name = $2',
      [bucket, key],
    );
    return rows[0];
  });
  if (!row) throw storageErrors.noSuchKey();
  return row;
}

/** An object of a public bucket, in one query; 404 for a private or missing bucket. */
export async function readPublicObject(
  db: Queryable,
  bucket: string,
  key: string,
): Promise<ObjectRow> {
  checkBucketName(bucket);
  checkObjectKey(key);
  const { rows } = await db.query<ObjectRow & { bucket_public: boolean }>(
    `select b.public as bucket_public, o.*
       from storage.buckets b
       left join storage.objects o on o.bucket_id = b.id and o.name = $2
      where b.id = $1`,
    [bucket, key],
  );
  const row = rows[0];
  if (!row || !row.bucket_public) throw storageErrors.noSuchBucket();
  if (!row.id) throw storageErrors.noSuchKey();
  return row;
}

/** Removes the objects the caller may delete; returns their rows (others are skipped). */
export async function removeObjects(
  core: StorageCore,
  run: Run,
  bucket: string,
  keys: readonly string[],
): Promise<ObjectRow[]> {
  checkBucketName(bucket);
  const rows = await run(async (tx) => {
    const result = await tx.query<ObjectRow>(
      'delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning *',
      [bucket, keys],
    );
    return result.rows;
  });
  await core.blobs.remove(rows.map((row) => row.file_id));
  return rows;
}

export interface Destination {
  bucket: string;
  key: string;
}

export async function moveObject(
  core: StorageCore,
  run: Run,
  from: Destination,
  to: Destination,
  owner: string | null,
): Promise<void> {
  checkBucketName(from.bucket);
  checkObjectKey(from.key);
  await findBucket(core.db, checkBucketName(to.bucket));
  checkObjectKey(to.key);
  const moved = await run(async (tx) => {
    const { rowCount } = await tx.query(
      `update storage.objects
          set bucket_id = $3, name = $4, owner = coalesce($5, owner), updated_at = now()
        where bucket_id = $1 and name = $2`,
      [from.bucket, from.key, to.bucket, to.key, owner],
    );
    return rowCount;
  }).catch((error: unknown) => fromDatabaseError(error, storageErrors.keyExists));
  if (moved === 0) throw storageErrors.noSuchKey();
}

export async function copyObject(
  core: StorageCore,
  run: Run,
  from: Destination,
  to: Destination,
  options: { owner: string | null; upsert: boolean; copyMetadata: boolean },
): Promise<{ id: string; key: string }> {
  const source = await readObject(run, from.bucket, from.key);
  const target = await findBucket(core.db, checkBucketName(to.bucket));
  const key = checkObjectKey(to.key);
  if (!mimeTypeAllowed(source.metadata.mimetype, target.allowed_mime_types))
    throw storageErrors.invalidMimeType(source.metadata.mimetype);
  const limit = sizeLimit(core, target);
  if (source.metadata.size > limit) throw storageErrors.entityTooLarge(limit);
  return saveObjectRow(core, run, {
    bucket: target.id,
    key,
    owner: options.owner,
    metadata: { ...source.metadata, lastModified: new Date().toISOString() },
    userMetadata: options.copyMetadata ? source.user_metadata : null,
    fileId: await core.blobs.copy(source.file_id),
    write: options.upsert ? 'upsert' : 'insert',
  });
}

export interface ListOptions {
  prefix?: string;
  limit?: number;
  offset?: number;
  sortBy?: { column?: string; order?: string };
  search?: string;
}

export type ListEntry = {
  name: string;
  id: string | null;
  updated_at: Date | null;
  created_at: Date | null;
  last_accessed_at: Date | null;
  metadata: ObjectMetadata | null;
};

const SORT_COLUMNS = new Set(['name', 'id', 'updated_at', 'created_at', 'last_accessed_at']);

function likePattern(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * One level of a bucket, as Supabase's `list` returns it: sub-folders (id and metadata null)
 * and files directly under `prefix`, with names relative to it. Only rows the caller may
 * see count, so a folder holding only others' files does not appear.
 */
export async function listObjects(
  run: Run,
  bucket: string,
  options: ListOptions,
): Promise<ListEntry[]> {
  checkBucketName(bucket);
  let prefix = typeof options.prefix === 'string' ? options.prefix.replace(/^\/+/, '') : '';
  if (prefix !== '' && !prefix.endsWith('/')) prefix += '/';
  const limit = clampInt(options.limit, 100, 1, 1000);
  const offset = clampInt(options.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  const column = SORT_COLUMNS.has(options.sortBy?.column ?? '') ? options.sortBy!.column! : 'name';
  const order = options.sortBy?.order?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const search = typeof options.search === 'string' ? options.search : '';
  return run(async (tx) => {
    const { rows } = await tx.query<ListEntry>(
      `with under as (
         select substr(name, char_length($2::text) + 1) as rest, id, updated_at, created_at,
                last_accessed_at, metadata
           from storage.objects
          where bucket_id = $1 and name like $3 escape '\\'
       ), entries as (
         select split_part(rest, '/', 1) as name, null::uuid as id,
                null::timestamptz as updated_at, null::timestamptz as created_at,
                null::timestamptz as last_accessed_at, null::jsonb as metadata
           from under where strpos(rest, '/') > 0 group by 1
         union all
         select rest, id, updated_at, created_at, last_accessed_at, metadata
           from under where strpos(rest, '/') = 0
       )
       select * from entries where name ilike $4 escape '\\'
        order by ${column === 'name' ? 'name collate "C"' : column} ${order} nulls first,
                 name collate "C" ${order}
        limit $5 offset $6`,
      [bucket, prefix, `${likePattern(prefix)}%`, `${likePattern(search)}%`, limit, offset],
    );
    return rows;
  });
}

export interface ListV2Options {
  prefix?: string;
  limit?: number;
  /** A previous page's `nextCursor`; its sort wins over `sortBy`, as upstream's does. */
  cursor?: string;
  /** Group keys below the next "/" after the prefix into folders. */
  withDelimiter?: boolean;
  sortBy?: { column: ListSortColumn; order?: ListSortOrder };
}

type ListV2Entry = {
  name: string;
  id: string | null;
  updated_at: Date;
  created_at: Date;
  last_accessed_at: Date | null;
  metadata: ObjectMetadata | null;
  /** The sort column's value in whole milliseconds, as the cursor carries it. */
  sort_ms: string;
};

export interface ListV2Page {
  hasNext: boolean;
  nextCursor?: string;
  /** The last entry's name, as upstream reports it beside the cursor. */
  nextCursorKey?: string;
  folders: { key: string; name: string }[];
  objects: (Omit<ListV2Entry, 'sort_ms'> & { key?: string })[];
}

/** Storage's list-v2 page size when none is asked for, and the most it returns. */
export const LIST_V2_MAX_KEYS = 1000;

/**
 * One page of `POST /object/list-v2/{bucket}`, as Supabase Storage answers it: names are full
 * keys (folders end in "/"), folders and objects come in one sorted sequence split into two
 * lists, and the page continues after the cursor's entry. The prefix is a plain string prefix
 * (`%` and `_` are literal); with the delimiter, keys with a "/" after it become one folder
 * each, dated by their oldest object as upstream dates them. Only rows the caller may see
 * count (one statement under their role), so a folder of others' files does not appear.
 */
export async function listObjectsV2(
  run: Run,
  bucket: string,
  options: ListV2Options,
): Promise<ListV2Page> {
  checkBucketName(bucket);
  const prefix = options.prefix ?? '';
  const limit = clampInt(options.limit, LIST_V2_MAX_KEYS, 1, LIST_V2_MAX_KEYS);
  const cursor = options.cursor ? decodeListCursor(options.cursor) : undefined;
  const column = cursor?.column ?? options.sortBy?.column ?? 'name';
  const order = cursor?.order ?? options.sortBy?.order ?? 'asc';
  const delimiter = options.withDelimiter === true;
  const after = order === 'asc' ? '>' : '<';
  const params: unknown[] = [bucket, prefix, delimiter, `${likePattern(prefix)}%`, limit + 1];
  // `column` is one of LIST_SORT_COLUMNS (checked at the edge and in the cursor).
  const timeKey = `date_trunc('milliseconds', ${column})`;
  let continueAfter = '';
  if (cursor) {
    params.push(cursor.startAfter);
    if (column === 'name') continueAfter = `where name collate "C" ${after} $6`;
    else {
      params.push(cursor.after);
      continueAfter = `where (${timeKey}, name collate "C") ${after} ($7::timestamptz, $6)`;
    }
  }
  const rows = await run(async (tx) => {
    const result = await tx.query<ListV2Entry>(
      `with under as (
         select name, id, updated_at, created_at, last_accessed_at, metadata,
                case when $3::boolean
                     then strpos(substr(name, char_length($2::text) + 1), '/') else 0 end as cut
           from storage.objects
          where bucket_id = $1 and name like $4 escape '\\'
       ), entries as (
         select left(name, char_length($2::text) + cut) as name, null::uuid as id,
                min(created_at) as updated_at, min(created_at) as created_at,
                null::timestamptz as last_accessed_at, null::jsonb as metadata
           from under where cut > 0 group by 1
         union all
         select name, id, updated_at, created_at, last_accessed_at, metadata
           from under where cut = 0
       )
       select *,
              ${column === 'name' ? `''` : `floor(extract(epoch from ${column}) * 1000)::bigint::text`}
                as sort_ms
         from entries
        ${continueAfter}
        order by ${column === 'name' ? '' : `${timeKey} ${order}, `}name collate "C" ${order}
        limit $5`,
      params,
    );
    return result.rows;
  });

  const hasNext = rows.length > limit;
  const page = rows.slice(0, limit);
  // The depth of the prefix's last segment: an entry's `key` is its name at that depth.
  const depth = prefix.split('/').length - 1;
  const keyOf = (name: string) => name.split('/')[depth] ?? name;
  const folders: ListV2Page['folders'] = [];
  const objects: ListV2Page['objects'] = [];
  for (const { sort_ms: _sortMs, ...entry } of page) {
    if (entry.id === null) folders.push({ key: keyOf(entry.name), name: entry.name });
    else objects.push(delimiter ? { ...entry, key: keyOf(entry.name) } : entry);
  }
  const last = page.at(-1);
  if (!hasNext || !last) return { hasNext: false, folders, objects };
  return {
    hasNext: true,
    nextCursor: encodeListCursor({
      startAfter: last.name,
      order,
      column,
      ...(column === 'name' ? {} : { after: new Date(Number(last.sort_ms)).toISOString() }),
    }),
    nextCursorKey: last.name,
    folders,
    objects,
  };
}

function clampInt(value: unknown, fallback: number, min: number, max: number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(Math.max(Math.trunc(n), min), max);
}

export interface BucketInput {
  id?: unknown;
  name?: unknown;
  public?: unknown;
  file_size_limit?: unknown;
  allowed_mime_types?: unknown;
}

function mimeList(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (
    !Array.isArray(value) ||
    value.some((v) => typeof v !== 'string' || !/^[\w.+*-]+\/[\w.+*-]+$/.test(v))
  )
    throw storageErrors.invalidRequest(
      'allowed_mime_types must be a list such as ["image/png", "image/*"]',
    );
  return value.length === 0 ? null : (value as string[]);
}

export async function createBucket(
  run: Run,
  input: BucketInput,
  owner: string | null,
): Promise<{ name: string }> {
  const id = checkBucketName(input.id ?? input.name);
  const name = input.name === undefined ? id : checkBucketName(input.name);
  const isPublic = input.public === true;
  const limit = parseSizeLimit(input.file_size_limit);
  const mimes = mimeList(input.allowed_mime_types);
  await run((tx) =>
    tx.query(
      `insert into storage.buckets (id, name, owner, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3, $4, $5, $6)`,
      [id, name, owner, isPublic, limit, mimes],
    ),
  ).catch((error: unknown) => fromDatabaseError(error, storageErrors.bucketExists));
  return { name: id };
}

export async function updateBucket(run: Run, id: string, input: BucketInput): Promise<void> {
  checkBucketName(id);
  const sets: string[] = [];
  const params: unknown[] = [id];
  if (input.public !== undefined) {
    params.push(input.public === true);
    sets.push(`public = $${params.length}`);
  }
  if (input.file_size_limit !== undefined) {
    params.push(parseSizeLimit(input.file_size_limit));
    sets.push(`file_size_limit = $${params.length}`);
  }
  if (input.allowed_mime_types !== undefined) {
    params.push(mimeList(input.allowed_mime_types));
    sets.push(`allowed_mime_types = $${params.length}`);
  }
  sets.push('updated_at = now()');
  const updated = await run(async (tx) => {
    const { rowCount } = await tx.query(
      `update storage.buckets set ${sets.join(', ')} where id = $1`,
      params,
    );
    return rowCount;
  }).catch((error: unknown) => fromDatabaseError(error, storageErrors.bucketExists));
  if (updated === 0) throw storageErrors.noSuchBucket();
}

export async function listBuckets(
  run: Run,
  options: {
    limit?: string;
    offset?: string;
    search?: string;
    sortColumn?: string;
    sortOrder?: string;
  },
): Promise<BucketRow[]> {
  const column = ['id', 'name', 'created_at', 'updated_at'].includes(options.sortColumn ?? '')
    ? options.sortColumn!
    : 'name';
  const order = options.sortOrder?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  const limit = clampInt(options.limit, 1000, 1, 1000);
  const offset = clampInt(options.offset, 0, 0, Number.MAX_SAFE_INTEGER);
  return run(async (tx) => {
    const { rows } = await tx.query<BucketRow>(
      `select * from storage.buckets where name ilike $1 escape '\\'
        order by ${column} ${order} limit $2 offset $3`,
      [`%${likePattern(options.search ?? '')}%`, limit, offset],
    );
    return rows;
  });
}

export async function getBucket(run: Run, id: string): Promise<BucketRow> {
  checkBucketName(id);
  const row = await run(async (tx) => {
    const { rows } = await tx.query<BucketRow>('select * from storage.buckets where id = $1', [id]);
    return rows[0];
  });
  if (!row) throw storageErrors.noSuchBucket();
  return row;
}

/** Deletes every object in the bucket the caller may delete. */
export async function emptyBucket(core: StorageCore, run: Run, id: string): Promise<void> {
  await getBucket(run, id);
  const fileIds = await run(async (tx) => {
    const { rows } = await tx.query<{ file_id: string }>(
      'delete from storage.objects where bucket_id = $1 returning file_id',
      [id],
    );
    return rows.map((row) => row.file_id);
  });
  await core.blobs.remove(fileIds);
}

export async function deleteBucket(core: StorageCore, run: Run, id: string): Promise<void> {
  await getBucket(run, id);
  // Emptiness is checked as superuser: objects hidden from the caller still block deletion.
  const { rows } = await core.db.query<{ n: number }>(
    'select count(*)::int as n from storage.objects where bucket_id = $1',
    [id],
  );
  if ((rows[0]?.n ?? 0) > 0) throw storageErrors.bucketNotEmpty();
  const deleted = await run(async (tx) => {
    const { rowCount } = await tx.query('delete from storage.buckets where id = $1', [id]);
    return rowCount;
  }).catch((error: unknown) => fromDatabaseError(error, storageErrors.bucketExists));
  if (deleted === 0) throw storageErrors.accessDenied('You may not delete this bucket');
}
