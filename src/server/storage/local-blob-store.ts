/**
 * Object bytes on local disk, in `{storageDir}/objects`, fanned out by the first two
 * characters of the generated id. A staged upload is renamed into place.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  checkFileId,
  createStaging,
  SMALL_READ_BYTES,
  type BlobSource,
  type BlobStore,
} from './blob-store';
import { storageErrors } from './errors';

export function createLocalBlobStore(storageDir: string): BlobStore & {
  /** Where a blob's file is, for tests and benchmarks that look at the disk. */
  filePath(fileId: string): string;
} {
  const objectsDir = path.join(storageDir, 'objects');
  const staging = createStaging(storageDir);

  function filePath(fileId: string): string {
    return path.join(objectsDir, fileId.slice(0, 2), checkFileId(fileId));
  }

  async function place(tmp: string, fileId: string): Promise<void> {
    const target = filePath(fileId);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    await fs.promises.rename(tmp, target);
  }

  async function write(source: BlobSource, maxBytes: number) {
    const fileId = randomUUID();
    const staged = await staging.stage(source, maxBytes);
    try {
      await place(staged.tmp, fileId);
    } catch (error) {
      await fs.promises.rm(staged.tmp, { force: true });
      throw error;
    }
    return { fileId, size: staged.size, eTag: staged.eTag };
  }

  return {
    kind: 'local',
    filePath,
    write,
    // A temp file renamed into place is already a streaming write.
    writeStream: write,

    async copy(fileId) {
      const fresh = randomUUID();
      const tmp = await staging.tempFile();
      try {
        await fs.promises.copyFile(filePath(fileId), tmp);
        await place(tmp, fresh);
      } catch (error) {
        await fs.promises.rm(tmp, { force: true });
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw storageErrors.noSuchKey();
        throw error;
      }
      return fresh;
    },

    async read(fileId, span) {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(filePath(fileId), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw storageErrors.noSuchKey();
        throw error;
      }
      const start = span?.start ?? 0;
      const end = span?.end ?? (await handle.stat()).size - 1;
      const length = Math.max(0, end - start + 1);
      if (length <= SMALL_READ_BYTES) {
        try {
          const buffer = Buffer.allocUnsafe(length);
          const { bytesRead } = await handle.read(buffer, 0, length, start);
          return buffer.subarray(0, bytesRead);
        } finally {
          await handle.close();
        }
      }
      return handle.createReadStream({ start, end, autoClose: true });
    },

    async remove(fileIds) {
      await Promise.all(fileIds.map((id) => fs.promises.rm(filePath(id), { force: true })));
    },

    sweepTemp: (maxAgeMs) => staging.sweep(maxAgeMs),

    async check() {
      await fs.promises.mkdir(objectsDir, { recursive: true });
    },
  };
}
