/**
 * Where object bytes live. Rows in storage.objects name a blob by a generated uuid (`file_id`);
 * a user-supplied name never reaches the backend. Two backends: local disk
 * (local-blob-store.ts) and an S3-compatible bucket (s3-blob-store.ts); see decision 0025.
 *
 * Every upload is first streamed to a temp file under the storage directory, metered and
 * hashed, so an oversize body is refused the same way on both backends and a reader never
 * sees a half-written object.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { storageErrors } from './errors';

export type BlobSource = Uint8Array | ReadableStream<Uint8Array> | Readable;

export interface StoredBlob {
  fileId: string;
  size: number;
  /** Quoted MD5 of the bytes, as S3 and Supabase give it. */
  eTag: string;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteSpan {
  start: number;
  end: number;
}

export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Streams bytes into a new blob; refuses (and leaves nothing behind) past `maxBytes`. */
  write(source: BlobSource, maxBytes: number): Promise<StoredBlob>;
  /**
   * Streams bytes the server produces (a data export being zipped) into a new blob without
   * holding them all: on local disk through a temp file renamed into place, as `write`; in S3
   * as a multipart upload, one part in memory at a time, so nothing is staged on local disk.
   * Refuses past `maxBytes` and leaves no object behind.
   */
  writeStream(source: BlobSource, maxBytes: number): Promise<StoredBlob>;
  /** A new blob with the same bytes; returns its id. */
  copy(fileId: string): Promise<string>;
  /**
   * The bytes of `span` (whole blob without one): small reads as one buffer, larger ones as a
   * stream. Throws NoSuchKey when the blob is gone (a delete raced the read).
   */
  read(fileId: string, span?: ByteSpan): Promise<Buffer | Readable>;
  /** Missing blobs are ignored: removal runs after the row is gone and may repeat. */
  remove(fileIds: readonly string[]): Promise<void>;
  /** Deletes temp files older than `maxAgeMs`, left by uploads a crash interrupted. */
  sweepTemp(maxAgeMs: number): Promise<number>;
  /** Start-up check that the backend is reachable; throws a message a person can act on. */
  check(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Refuses anything but a generated id, so a corrupt row cannot name another file. */
export function checkFileId(fileId: string): string {
  if (!UUID.test(fileId)) throw new Error(`Refusing a malformed storage file id: ${fileId}`);
  return fileId;
}

/** Whole blobs up to this size are read in one go: cheaper than a stream's setup. */
export const SMALL_READ_BYTES = 64 * 1024;

export async function readAll(data: Buffer | Readable): Promise<Buffer<ArrayBuffer>> {
  if (Buffer.isBuffer(data)) return data as Buffer<ArrayBuffer>;
  const chunks: Buffer[] = [];
  for await (const chunk of data) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function toReadable(source: BlobSource): Readable {
  if (source instanceof Uint8Array)
    return Readable.from([Buffer.from(source.buffer, source.byteOffset, source.byteLength)]);
  if (source instanceof Readable) return source;
  return Readable.fromWeb(source as NodeReadableStream<Uint8Array>);
}

/** Temp files of uploads in flight, in `{storageDir}/tmp`. */
export function createStaging(storageDir: string) {
  const tmpDir = path.join(storageDir, 'tmp');

  async function tempFile(): Promise<string> {
    await fs.promises.mkdir(tmpDir, { recursive: true });
    return path.join(tmpDir, `${randomUUID()}.part`);
  }

  return {
    tempFile,

    /** Writes the source to a temp file, metered and hashed; removes it on any failure. */
    async stage(
      source: BlobSource,
      maxBytes: number,
    ): Promise<{ tmp: string; size: number; eTag: string }> {
      const tmp = await tempFile();
      const hash = createHash('md5');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(storageErrors.entityTooLarge(maxBytes));
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      try {
        await pipeline(toReadable(source), meter, fs.createWriteStream(tmp, { flags: 'wx' }));
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        throw error;
      }
      return { tmp, size, eTag: `"${hash.digest('hex')}"` };
    },

    async sweep(maxAgeMs: number): Promise<number> {
      let names: string[];
      try {
        names = await fs.promises.readdir(tmpDir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
      const cutoff = Date.now() - maxAgeMs;
      let removed = 0;
      for (const name of names) {
        const file = path.join(tmpDir, name);
        const stat = await fs.promises.stat(file).catch(() => undefined);
        if (stat && stat.mtimeMs < cutoff) {
          await fs.promises.rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}
