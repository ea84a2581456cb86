/**
 * CPU time the servers under test spend: this process (the gateway, the bare route, and PGlite
 * when it is the database) and a PostgreSQL cluster's processes. Per request, it is a figure a
 * loaded machine changes little, beside throughput, which a shared machine's other jobs move a
 * lot. Read from /proc on Linux; elsewhere the PostgreSQL part is not measured.
 */
import fs from 'node:fs';
import type { Database } from '../../src/server/db/types';

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** This process's CPU time so far, in microseconds. */
export function processCpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function statFields(pid: number): string[] | undefined {
  try {
    // The command name (field 2) may hold spaces; the fields after it are plain numbers.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * A reader of the CPU time, in microseconds, of the PostgreSQL cluster `db` is connected to:
 * its postmaster (with the children it has reaped) and every live child (backends, writers).
 * Undefined where /proc cannot tell.
 */
export async function postgresCpuReader(db: Database): Promise<(() => number) | undefined> {
  if (db.kind !== 'postgres' || !fs.existsSync('/proc/self/stat')) return undefined;
  const { rows } = await db.query<{ pid: number }>('select pg_backend_pid() as pid');
  const backend = rows[0]?.pid;
  // Fields after the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  const postmaster = backend === undefined ? undefined : Number(statFields(backend)?.[1]);
  if (!postmaster) return undefined;
  return () => {
    let ticks = 0;
    const own = statFields(postmaster);
    if (own) ticks += Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = statFields(Number(entry));
      if (fields && Number(fields[1]) === postmaster)
        ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1_000_000) / TICKS_PER_SECOND;
  };
}
