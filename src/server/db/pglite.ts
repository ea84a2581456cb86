import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import { applyClaims } from './claims';
import { takeDataDirLock } from './data-dir-lock';
import { durabilityOptions, type EmbeddedFsync } from './pglite-durability';
import { pgliteQueryAsRole } from './pglite-pipeline';
import type { Database, JwtClaims, QueryResult, Queryable, RoleOptions, Row } from './types';

/** Same JavaScript types as the `pg` driver is configured for (see postgres.ts). */
const parsers = {
  [types.INT8]: (value: string) => Number(value),
  [types.NUMERIC]: (value: string) => value,
};

interface PgliteLike {
  query<R>(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: R[]; affectedRows?: number; fields: { name: string; dataTypeID: number }[] }>;
  exec(sql: string): Promise<unknown>;
}

function wrap(target: PgliteLike): Queryable {
  return {
    async query<R extends Row = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<R>(sql, [...params]);
      return {
        rows: result.rows,
        rowCount: result.affectedRows || result.rows.length,
        fields: result.fields,
      } satisfies QueryResult<R>;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  };
}

export interface PgliteDatabase extends Database {
  /** The whole data directory as a tarball, to start another PGlite from (`loadDataDir`). */
  dumpDataDir(): Promise<Blob>;
}

/**
 * Opens PGlite in `dataDir`, or in memory when `dataDir` is "memory://"; `loadDataDir` starts
 * it from a tarball made by `dumpDataDir()` (the tests copy one migrated database that way).
 */
export async function openPglite(
  dataDir: string,
  options: {
    loadDataDir?: Blob;
    /** `commit` (the default) flushes every commit to disk; `off` leaves it to the OS. */
    fsync?: EmbeddedFsync;
  } = {},
): Promise<PgliteDatabase> {
  const inMemory = dataDir.startsWith('memory://');
  const releaseLock = inMemory ? () => undefined : takeDataDirLock(dataDir).release;
  const pgDir = inMemory ? undefined : path.join(dataDir, 'pg');
  let pg: PGlite;
  try {
    pg = await PGlite.create(pgDir, {
      parsers,
      loadDataDir: options.loadDataDir,
      ...(pgDir ? durabilityOptions(pgDir, options.fsync ?? 'commit') : {}),
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const root = wrap(pg as unknown as PgliteLike);

  return {
    kind: 'pglite',
    query: root.query,
    exec: root.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx as unknown as PgliteLike))),
    asRole: <T>(claims: JwtClaims, fn: (tx: Queryable) => Promise<T>, options?: RoleOptions) =>
      pg.transaction(async (tx) => {
        const wrapped = wrap(tx as unknown as PgliteLike);
        await applyClaims(wrapped, claims, options?.searchPath);
        return fn(wrapped);
      }),
    queryAsRole: (claims, sql, params = [], options = {}) =>
      pgliteQueryAsRole(pg, claims, sql, params, options.searchPath),
    async listen(channel, onNotify) {
      const unsubscribe = await pg.listen(channel, onNotify);
      return async () => unsubscribe();
    },
    dumpDataDir: () => pg.dumpDataDir('none'),
    async close() {
      try {
        await pg.close();
      } finally {
        releaseLock();
      }
    },
  };
}
