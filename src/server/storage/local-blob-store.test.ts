import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalBlobStore } from './local-blob-store';
import { StorageError } from './errors';

describe('blob store', () => {
  const roots: string[] = [];
  const root = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-blobs-'));
    roots.push(dir);
    return dir;
  };
  afterEach(() =>
    roots.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })),
  );

  it('writes under a generated id with size and MD5 ETag, copies and removes', async () => {
    const store = createLocalBlobStore(root());
    const blob = await store.write(Buffer.from('hello'), 100);
    expect(blob).toMatchObject({ size: 5, eTag: '"5d41402abc4b2a76b9719d911017c592"' });
    expect(fs.readFileSync(store.filePath(blob.fileId), 'utf8')).toBe('hello');
    const copy = await store.copy(blob.fileId);
    expect(fs.readFileSync(store.filePath(copy), 'utf8')).toBe('hello');
    expect((await store.read(copy, { start: 1, end: 3 })).toString()).toBe('ell');
    await store.remove([blob.fileId, copy, blob.fileId]);
    expect(fs.existsSync(store.filePath(blob.fileId))).toBe(false);
    await expect(store.read(blob.fileId)).rejects.toMatchObject({ code: 'NoSuchKey' });
    expect(() => store.filePath('../../etc/passwd')).toThrow(/malformed/);
  });

  it('stops a stream past the limit and leaves no file behind', async () => {
    const dir = root();
    const store = createLocalBlobStore(dir);
    const source = Readable.from([Buffer.alloc(60), Buffer.alloc(60)]);
    await expect(store.write(source, 100)).rejects.toBeInstanceOf(StorageError);
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'objects'))).toBe(false);
  });

  it('sweeps temp files older than the cutoff only', async () => {
    const dir = root();
    const store = createLocalBlobStore(dir);
    fs.mkdirSync(path.join(dir, 'tmp'));
    const old = path.join(dir, 'tmp', 'old.part');
    const fresh = path.join(dir, 'tmp', 'fresh.part');
    fs.writeFileSync(old, 'x');
    fs.writeFileSync(fresh, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    fs.utimesSync(old, twoHoursAgo, twoHoursAgo);
    expect(await store.sweepTemp(3600_000)).toBe(1);
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual(['fresh.part']);
  });
});
