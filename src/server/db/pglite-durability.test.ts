import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPglite } from './pglite';
import type { EmbeddedFsync } from './pglite-durability';

/** The files `fs.fsyncSync` flushed while `work` ran, as paths inside the data directory. */
async function flushedDuring(dataDir: string, work: () => Promise<unknown>): Promise<string[]> {
  const flushed: string[] = [];
  const fsyncSync = fs.fsyncSync.bind(fs);
  const spy = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
    flushed.push(path.relative(dataDir, fs.readlinkSync(`/proc/self/fd/${fd}`)));
    fsyncSync(fd);
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return flushed;
}

describe('embedded durability', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(fsync: EmbeddedFsync) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-fsync-'));
    dirs.push(dir);
    const db = await openPglite(dir, { fsync });
    await db.exec('create table t (id int primary key)');
    return { dir, db };
  }

  it('flushes the WAL to disk when a transaction commits (EMBEDDED_FSYNC=commit)', async () => {
    const { dir, db } = await open('commit');
    try {
      const settings = await db.query<{ fsync: string; method: string }>(
        `select current_setting('fsync') as fsync, current_setting('wal_sync_method') as method`,
      );
      expect(settings.rows[0]).toEqual({ fsync: 'on', method: 'fsync' });
      const flushed = await flushedDuring(dir, () => db.query('insert into t values (1)'));
      expect(flushed.some((file) => file.startsWith(path.join('pg', 'pg_wal') + path.sep))).toBe(
        true,
      );
      // A read commits nothing and flushes nothing.
      expect(await flushedDuring(dir, () => db.query('select * from t'))).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('leaves flushing to the operating system with EMBEDDED_FSYNC=off', async () => {
    const { dir, db } = await open('off');
    try {
      expect(await flushedDuring(dir, () => db.query('insert into t values (1)'))).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
