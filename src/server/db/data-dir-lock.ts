/**
 * One process owns a data directory: PGlite gives a second opener no error and silently loses
 * its writes, so we refuse it ourselves with a lock file.
 *
 * A PID alone cannot tell a live holder from a dead one whose PID the system has since given
 * to another process (after a crash or a reboot, PIDs are reused), which used to block start-up
 * until someone deleted the file. The lock also records the holder's start time as the kernel
 * reports it (with the boot id on Linux) and a random token: a PID whose process started at
 * another time is not the holder.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'lyceum.lock';

export interface LockHolder {
  pid: number;
  /** When the holder process started, as `processStartTime` reads it; undefined if unknown. */
  startedAt?: string;
  /** Random per holder: tells two holders apart when everything else matches. */
  token: string;
}

export interface DataDirLock {
  holder: LockHolder;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

export class DataDirInUseError extends Error {
  constructor(
    public readonly dataDir: string,
    public readonly holder: LockHolder,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${holder.pid}. Stop that process, or ` +
        `set DATA_DIR to another directory.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function readBootId(): string | undefined {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The kernel's start time of a process: on Linux, field 22 of /proc/PID/stat (clock ticks since
 * boot) with the boot id; elsewhere `ps -o lstart=`. Undefined when the process does not exist
 * or the system tells us nothing.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces: count after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[19];
    if (ticks) return `${readBootId() ?? 'boot'}:${ticks}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync('/proc/self/stat')) {
      return undefined;
    }
  }
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return out === '' ? undefined : out;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Parses a lock file; a bare number is the format before start times were recorded. */
function parseLock(text: string): LockHolder | undefined {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), token: '' };
  try {
    const value = JSON.parse(trimmed) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) {
      return undefined;
    }
    return {
      pid: value.pid,
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : undefined,
      token: typeof value.token === 'string' ? value.token : '',
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether the recorded holder still runs: its PID is alive and, when the lock recorded a start
 * time, the process behind that PID started at that time. A lock in the old PID-only format
 * counts as held while its PID is alive (nothing else tells).
 */
export function holderIsRunning(holder: LockHolder): boolean {
  if (!isAlive(holder.pid)) return false;
  if (holder.startedAt === undefined) return true;
  const now = processStartTime(holder.pid);
  return now === undefined || now === holder.startedAt;
}

/** Reads the lock of `dataDir`; undefined when there is none or it is unreadable. */
export function readLock(dataDir: string): LockHolder | undefined {
  try {
    return parseLock(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The lock's holder if a running process holds `dataDir`, else undefined. */
export function runningHolder(dataDir: string): LockHolder | undefined {
  const holder = readLock(dataDir);
  return holder && holderIsRunning(holder) ? holder : undefined;
}

/** Takes the lock of `dataDir` for this process, or throws `DataDirInUseError`. */
export function takeDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const holder: LockHolder = {
    pid: process.pid,
    startedAt: processStartTime(process.pid),
    token: randomBytes(16).toString('hex'),
  };
  // `wx` creates the file only if it does not exist, so two starters cannot both take it.
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(holder), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
    }
    const previous = readLock(dataDir);
    if (previous && previous.pid !== process.pid && holderIsRunning(previous)) {
      throw new DataDirInUseError(dataDir, previous);
    }
    fs.rmSync(file, { force: true });
  }
  return {
    holder,
    release() {
      if (readLock(dataDir)?.token === holder.token) fs.rmSync(file, { force: true });
    },
  };
}
