/**
 * The local folders a data export is deflated into before it is streamed to storage (decision
 * 0437). They hold a learner's personal data, so one left behind by a process that died
 * mid-export must not stay on disk: every process removes abandoned ones when it starts.
 */
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'lyceum-export-';
/** Far longer than any export runs, so a folder another process is still writing is left. */
export const ABANDONED_SPOOL_MS = 24 * 60 * 60 * 1000;

export function createExportSpool(parent = os.tmpdir()): Promise<string> {
  return mkdtemp(path.join(parent, PREFIX));
}

/** Removes export folders not touched for `maxAgeMs`; answers how many were removed. */
export async function removeAbandonedExportSpools(
  parent = os.tmpdir(),
  now = Date.now(),
  maxAgeMs = ABANDONED_SPOOL_MS,
): Promise<number> {
  let removed = 0;
  for (const name of await readdir(parent)) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = path.join(parent, name);
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory() || now - info.mtimeMs < maxAgeMs) continue;
    await rm(folder, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
