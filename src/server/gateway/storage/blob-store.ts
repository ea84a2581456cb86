/**
 * Object bytes on disk. Files are named by a generated uuid and fanned out by its first two
 * characters; a user-supplied name never reaches the file system. Writes go to a temp file
 * that is renamed into place, so a reader never sees a half-written object.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { storageErrors } from './errors';

export interface StoredBlob {
  fileId: string;
  size: number;
  /** Quoted MD5 of the bytes, as S3 and Supabase give it. */
  eTag: string;
}

export interface BlobStore {
  /** Streams bytes into a new file; refuses (and leaves nothing behind) past `maxBytes`. */
  write(
    source: Uint8Array | ReadableStream<Uint8Array> | Readable,
    maxBytes: number,
  ): Promise<StoredBlob>;
  copy(fileId: string): Promise<string>;
  filePath(fileId: string): string;
  /** Missing files are ignored: removal runs after the row is gone and may repeat. */
  remove(fileIds: readonly string[]): Promise<void>;
  /** Deletes temp files older than `maxAgeMs`, left by uploads a crash interrupted. */
  sweepTemp(maxAgeMs: number): Promise<number>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function createBlobStore(root: string): BlobStore {
  const tmpDir = path.join(root, 'tmp');
  const objectsDir = path.join(root, 'objects');

  function filePath(fileId: string): string {
    if (!UUID.test(fileId)) throw new Error(`Refusing a malformed storage file id: ${fileId}`);
    return path.join(objectsDir, fileId.slice(0, 2), fileId);
  }

  async function place(tmp: string, fileId: string): Promise<void> {
    const target = filePath(fileId);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(tmp, target);
  }

  async function tempFile(): Promise<string> {
    await fs.promises.mkdir(tmpDir, { recursive: true });
    return path.join(tmpDir, `${randomUUID()}.part`);
  }

  return {
    filePath,

    async write(source, maxBytes) {
      const fileId = randomUUID();
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
      const input =
        source instanceof Uint8Array
          ? Readable.from([Buffer.from(source.buffer, source.byteOffset, source.byteLength)])
          : source instanceof Readable
            ? source
            : Readable.fromWeb(source as NodeReadableStream<Uint8Array>);
      try {
        await pipeline(input, meter, fs.createWriteStream(tmp, { flags: 'wx' }));
        await place(tmp, fileId);
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        throw error;
      }
      return { fileId, size, eTag: `"${hash.digest('hex')}"` };
    },

    async copy(fileId) {
      const fresh = randomUUID();
      const tmp = await tempFile();
      try {
        await fs.promises.copyFile(filePath(fileId), tmp);
        await place(tmp, fresh);
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        throw error;
      }
      return fresh;
    },

    async remove(fileIds) {
      await Promise.all(fileIds.map((id) => fs.promises.rm(filePath(id), { force: true })));
    },

    async sweepTemp(maxAgeMs) {
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
