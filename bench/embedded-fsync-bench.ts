/**
 * What a power-loss-safe embedded commit costs (issue 10, decision 0016): commits per second of
 * one-row INSERTs (each its own transaction, as a REST write is) on PGlite in a data directory
 * on disk, with EMBEDDED_FSYNC=commit (the WAL flushed at each commit) and =off (left to the
 * OS), in interleaved one-second rounds. PGlite runs one statement at a time, so one client is
 * what every writer shares. The directory is made under `dir` (default: the system's temporary
 * directory): measure on the disk the data will live on, not on a RAM disk.
 *
 *   node --import tsx bench/embedded-fsync-bench.ts [seconds-per-case] [dir]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite } from '../src/server/db/pglite';
import type { EmbeddedFsync } from '../src/server/db/pglite-durability';
import { combine, measureLoop, type Measurement } from './lib/measure';

const SECONDS = Number(process.argv[2] ?? 5);
const ROOT = path.resolve(process.argv[3] ?? os.tmpdir());
const modes: EmbeddedFsync[] = ['commit', 'off'];

async function main() {
  const dirs = modes.map((mode) => fs.mkdtempSync(path.join(ROOT, `lyceum-fsync-${mode}-`)));
  const dbs = await Promise.all(modes.map((mode, i) => openPglite(dirs[i]!, { fsync: mode })));
  try {
    const next = modes.map(() => 0);
    const insert = (i: number) => () =>
      dbs[i]!.query('insert into bench_commits (id, body) values ($1, $2)', [
        (next[i]! += 1),
        'a row of about sixty bytes, like a small note or a progress update',
      ]);
    for (const [i, db] of dbs.entries()) {
      await db.exec('create table bench_commits (id int primary key, body text not null)');
      await measureLoop(insert(i), { connections: 1, seconds: 1 });
    }
    const rounds = modes.map((): Measurement[] => []);
    for (let round = 0; round < SECONDS; round++) {
      for (const i of modes.keys()) {
        rounds[i]!.push(await measureLoop(insert(i), { connections: 1, seconds: 1 }));
      }
    }
    const results = modes.map((mode, i) => ({ mode, result: combine(rounds[i]!) }));
    console.log(
      `PGlite one-row INSERT commits in ${ROOT} (${os.cpus().length} CPUs), ${SECONDS} one-second rounds per case`,
    );
    console.table(
      results.map(({ mode, result }) => ({
        EMBEDDED_FSYNC: mode,
        'commits/s': Math.round(result.requestsPerSecond),
        'p50 ms': Number(result.p50Ms.toFixed(3)),
        'p99 ms': Number(result.p99Ms.toFixed(3)),
        errors: result.errors,
      })),
    );
    const [flushed, unflushed] = results.map((r) => r.result.requestsPerSecond);
    if (flushed && unflushed) {
      console.log(
        `flushing at commit costs ${(1000 / flushed - 1000 / unflushed).toFixed(3)} ms per commit ` +
          `(${Math.round((1 - flushed / unflushed) * 100)}% of the commit rate)`,
      );
    }
    if (results.some((r) => r.result.errors > 0)) process.exitCode = 1;
  } finally {
    await Promise.all(dbs.map((db) => db.close()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
