import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DataDirInUseError,
  LOCK_FILE,
  processStartTime,
  readLock,
  takeDataDirLock,
} from './data-dir-lock';

/** A live process that is not ours, standing in for whatever got a dead holder's PID. */
let other: ChildProcess;
const dirs: string[] = [];

beforeAll(async () => {
  other = spawn('sleep', ['600'], { stdio: 'ignore' });
  await new Promise((resolve) => other.once('spawn', resolve));
});
afterAll(() => {
  other.kill();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lyceum-lock-'));
  dirs.push(dir);
  return dir;
}

function writeLock(dir: string, content: unknown) {
  fs.writeFileSync(
    path.join(dir, LOCK_FILE),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
}

describe('data directory lock', () => {
  it('records the PID, its start time and a token, and removes the file on release', () => {
    const dir = freshDir();
    const lock = takeDataDirLock(dir);
    expect(readLock(dir)).toEqual({
      pid: process.pid,
      startedAt: processStartTime(process.pid),
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(lock.holder.startedAt).toEqual(expect.any(String));
    expect(fs.statSync(path.join(dir, LOCK_FILE)).mode & 0o777).toBe(0o600);
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a directory held by a running process, naming it', () => {
    const dir = freshDir();
    writeLock(dir, { pid: other.pid, startedAt: processStartTime(other.pid!), token: 'held' });
    expect(() => takeDataDirLock(dir)).toThrow(DataDirInUseError);
    expect(() => takeDataDirLock(dir)).toThrow(`in use by process ${other.pid}`);
    expect(readLock(dir)?.token).toBe('held');
  });

  it('takes over a lock whose PID now belongs to another live process', () => {
    const dir = freshDir();
    // The holder died; the system gave its PID to `other`, which started at another time.
    writeLock(dir, { pid: other.pid, startedAt: 'another-boot:12345', token: 'stale' });
    const lock = takeDataDirLock(dir);
    expect(readLock(dir)).toMatchObject({ pid: process.pid, token: lock.holder.token });
    lock.release();
  });

  it('takes over a lock whose holder is gone, and one that is not a lock at all', () => {
    const dir = freshDir();
    const dead = spawn('true');
    return new Promise<void>((resolve) => {
      dead.once('exit', () => {
        writeLock(dir, { pid: dead.pid, startedAt: 'x', token: 'gone' });
        takeDataDirLock(dir).release();
        writeLock(dir, 'not a lock');
        takeDataDirLock(dir).release();
        resolve();
      });
    });
  });

  it('still honours the older PID-only lock of a running process', () => {
    const dir = freshDir();
    writeLock(dir, String(other.pid));
    expect(() => takeDataDirLock(dir)).toThrow(`in use by process ${other.pid}`);
  });

  it('does not remove a lock another process took after it', () => {
    const dir = freshDir();
    const lock = takeDataDirLock(dir);
    writeLock(dir, { pid: other.pid, startedAt: processStartTime(other.pid!), token: 'next' });
    lock.release();
    expect(readLock(dir)?.token).toBe('next');
  });
});
