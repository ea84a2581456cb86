/**
 * Object bytes in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …), one S3 object per blob,
 * keyed by the generated id under an optional prefix. Uploads are staged on local disk first
 * (metered and hashed, see blob-store.ts) and then sent with a known length, so a chunked
 * client body needs no multipart upload and an oversize one never reaches the bucket.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import {
  checkFileId,
  createStaging,
  SMALL_READ_BYTES,
  readAll,
  toReadable,
  type BlobStore,
} from './blob-store';
import { storageErrors } from './errors';

export interface S3Settings {
  bucket: string;
  /** Prepended to every key, e.g. "lyceum/"; empty for the bucket's root. */
  prefix: string;
  region: string;
  /** A non-AWS endpoint such as http://127.0.0.1:9000; AWS's own when undefined. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Without these, the AWS SDK's default chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/**
 * Size of each part of a streamed (multipart) write but the last: S3 needs at least 5 MiB, and
 * one part is what such a write holds in memory.
 */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;

/** DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' ||
      error.name === 'NotFound' ||
      error.$metadata.httpStatusCode === 404)
  );
}

export function createS3BlobStore(
  settings: S3Settings,
  storageDir: string,
  client: S3Client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // WORKAROUND(s3-compatible-checksums): SDK releases since early 2025 add CRC checksums to
    // every request by default, which many S3-compatible servers refuse; send them only where
    // the S3 API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  }),
): BlobStore {
  const staging = createStaging(storageDir);
  const { bucket } = settings;
  const keyOf = (fileId: string) => `${settings.prefix}${checkFileId(fileId)}`;

  return {
    kind: 's3',

    async write(source, maxBytes) {
      const fileId = randomUUID();
      const staged = await staging.stage(source, maxBytes);
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: keyOf(fileId),
            Body: fs.createReadStream(staged.tmp),
            ContentLength: staged.size,
          }),
        );
      } finally {
        await fs.promises.rm(staged.tmp, { force: true });
      }
      return { fileId, size: staged.size, eTag: staged.eTag };
    },

    async writeStream(source, maxBytes) {
      const fileId = randomUUID();
      const Key = keyOf(fileId);
      const started = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key }));
      const UploadId = started.UploadId;
      if (!UploadId) throw new Error(`S3 started no multipart upload for ${Key}`);
      const hash = createHash('md5');
      const parts: { ETag: string; PartNumber: number }[] = [];
      let part: Buffer[] = [];
      let partBytes = 0;
      let size = 0;
      const sendPart = async () => {
        const Body = Buffer.concat(part, partBytes);
        part = [];
        partBytes = 0;
        const PartNumber = parts.length + 1;
        const answer = await client.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key,
            UploadId,
            PartNumber,
            Body,
            ContentLength: Body.byteLength,
          }),
        );
        if (!answer.ETag) throw new Error(`S3 gave no ETag for part ${PartNumber} of ${Key}`);
        parts.push({ ETag: answer.ETag, PartNumber });
      };
      try {
        // Pulled one chunk at a time: the producer makes the next only when this one is taken.
        for await (const chunk of toReadable(source)) {
          const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          size += bytes.byteLength;
          if (size > maxBytes) throw storageErrors.entityTooLarge(maxBytes);
          hash.update(bytes);
          part.push(bytes);
          partBytes += bytes.byteLength;
          if (partBytes >= MULTIPART_PART_BYTES) await sendPart();
        }
        if (partBytes > 0 || parts.length === 0) await sendPart();
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key,
            UploadId,
            MultipartUpload: { Parts: parts },
          }),
        );
      } catch (error) {
        // The parts sent so far are dropped; a server that cannot abort keeps no object either
        // (nothing was completed), only parts its own lifecycle rules expire.
        await client
          .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key, UploadId }))
          .catch(() => undefined);
        throw error;
      }
      return { fileId, size, eTag: `"${hash.digest('hex')}"` };
    },

    async copy(fileId) {
      const fresh = randomUUID();
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: keyOf(fresh),
            CopySource: `${bucket}/${keyOf(fileId).split('/').map(encodeURIComponent).join('/')}`,
          }),
        );
      } catch (error) {
        if (isMissing(error)) throw storageErrors.noSuchKey();
        throw error;
      }
      return fresh;
    },

    async read(fileId, span) {
      let body: Readable;
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: keyOf(fileId),
            Range: span ? `bytes=${span.start}-${span.end}` : undefined,
          }),
        );
        body = answer.Body as Readable;
      } catch (error) {
        if (isMissing(error)) throw storageErrors.noSuchKey();
        throw error;
      }
      const length = span ? span.end - span.start + 1 : Infinity;
      return length <= SMALL_READ_BYTES ? readAll(body) : body;
    },

    async remove(fileIds) {
      for (let i = 0; i < fileIds.length; i += DELETE_BATCH) {
        const batch = fileIds.slice(i, i + DELETE_BATCH);
        const answer = await client.send(
          new DeleteObjectsCommand({
            Bucket: bucket,
            Delete: { Objects: batch.map((id) => ({ Key: keyOf(id) })), Quiet: true },
          }),
        );
        const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
        if (failed.length > 0)
          throw new Error(
            `S3 could not delete ${failed.length} object(s): ${failed[0]!.Code} ${failed[0]!.Message ?? ''}`,
          );
      }
    },

    sweepTemp: (maxAgeMs) => staging.sweep(maxAgeMs),

    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        const where = settings.endpoint ?? `AWS region ${settings.region}`;
        const why =
          error instanceof S3ServiceException
            ? `${error.name} (HTTP ${error.$metadata.httpStatusCode ?? '?'})`
            : (error as Error).message;
        throw new Error(
          `The S3 bucket "${bucket}" at ${where} cannot be reached: ${why}. Check S3_BUCKET, S3_ENDPOINT, S3_REGION and the credentials.`,
        );
      }
    },
  };
}
